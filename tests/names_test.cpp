// Issue 22 item 10: kernel names shortened for the terminal stay distinct.
// The names are ggml's HIP backend's (its mmvq.cu instantiates
// mul_mat_vec_q<type, ncols_dst, has_fusion, is_multi_token_id> for every
// quantisation type), as LLVM's demangler prints their symbols.
#include <gtest/gtest.h>

#include <set>

#include "regscope/describe/phrases.h"

namespace regscope {
namespace {

const std::string kParams =
    "(void const*, void const*, int const*, float*, unsigned int, unsigned int, unsigned int, unsigned int, "
    "unsigned int, unsigned int, unsigned int, unsigned int, unsigned int)";

std::vector<std::string> ggmlSiblings() {
  return {"void mul_mat_vec_q<(ggml_type)2, 1, true, false>" + kParams,
          "void mul_mat_vec_q<(ggml_type)2, 1, false, false>" + kParams,
          "void mul_mat_vec_q<(ggml_type)3, 1, true, false>" + kParams,
          "void mul_mat_vec_q<(ggml_type)8, 2, true, false>" + kParams,
          "void mul_mat_vec_q<(ggml_type)8, 2, true, true>" + kParams};
}

TEST(ShortenNames, TemplateSiblingsStayDistinctAtATerminalWidth) {
  const std::vector<std::string> names = ggmlSiblings();
  for (std::size_t width : {24u, 32u, 48u, 60u}) {
    const std::vector<std::string> shown = shortenNames(names, width);
    ASSERT_EQ(shown.size(), names.size());
    EXPECT_EQ(std::set<std::string>(shown.begin(), shown.end()).size(), names.size()) << "width " << width;
  }
  // At 48 (the default) one sibling needs its enum cast dropped: all drop it, and read alike.
  const std::vector<std::string> shown = shortenNames(names, 48);
  EXPECT_EQ(shown[0], "mul_mat_vec_q<2, 1, true, false>(...)");
  EXPECT_EQ(shown[4], "mul_mat_vec_q<8, 2, true, true>(...)");
  // At 60 all fit with their arguments whole; the parameters go.
  EXPECT_EQ(shortenNames(names, 60)[1], "mul_mat_vec_q<(ggml_type)2, 1, false, false>(...)");
  // Narrower still: the enum casts go, the values stay.
  EXPECT_EQ(shortenNames(names, 40)[3], "mul_mat_vec_q<8, 2, true, false>(...)");
  // Narrower: the name gives way, not the arguments.
  EXPECT_EQ(shortenNames(names, 36)[1], "mul_ma..._q<2, 1, false, false>(...)");
}

TEST(ShortenNames, FromTheMiddleOfTheArgumentList) {
  // Siblings that differ only in their first and last arguments keep those.
  const std::vector<std::string> names = {
      "void flash_attn_tile<64, 64, 32, 1, false, (ggml_type)1, 8>(char const*, char const*, float*)",
      "void flash_attn_tile<128, 64, 32, 1, false, (ggml_type)1, 16>(char const*, char const*, float*)"};
  const std::vector<std::string> shown = shortenNames(names, 40);
  EXPECT_EQ(shown[0], "flash_attn_tile<64, ..., 8>(...)");
  EXPECT_EQ(shown[1], "flash_attn_tile<128, ..., 16>(...)");
}

TEST(ShortenNames, ShortNamesAndOneLineNames) {
  EXPECT_EQ(shortenNames({"kernel(float*)"}, 48), std::vector<std::string>{"kernel(float*)"});
  EXPECT_EQ(shortenNames({"a_long_kernel_name(float*, float*, float*, float*, int)"}, 30),
            std::vector<std::string>{"a_long_kernel_name(...)"});
  EXPECT_EQ(shortKernelName("void mul_mat_vec_q<(ggml_type)2, 1, true, false>" + kParams),
            "mul_mat_vec_q<(ggml_type)2, 1, true, false>(...)");
  EXPECT_EQ(
      shortKernelName("void flash_attn_ext_f16<256, 256, 64, 2, true, false, (ggml_type)1, (ggml_type)1>" + kParams),
      "flash_attn_ext_f16<256, ..., (ggml_type)1>(...)");
  // Overloads that differ only in their parameters keep them rather than read the same.
  const std::vector<std::string> overloads = {"scale(float*, float, int, int, int, int)",
                                              "scale(double*, double, int, int, int, int)"};
  const std::vector<std::string> shown = shortenNames(overloads, 20);
  EXPECT_NE(shown[0], shown[1]);
}

// A table of many instances (a build's whole template sweep): every name
// still reads differently, and names that cut to the same text back off to
// longer forms, the ones that differ only far inside a long head whole.
TEST(ShortenNames, ManyInstancesAndNamesThatCutAlikeStayDistinct) {
  std::vector<std::string> names;
  for (int type = 0; type < 40; ++type)
    for (int cols = 1; cols <= 8; ++cols)
      names.push_back("void mul_mat_vec_q<(ggml_type)" + std::to_string(type) + ", " + std::to_string(cols) +
                      ", true, false>" + kParams);
  for (int i = 0; i < 20; ++i)  // alike for their first 60 characters, and longer than any width here
    names.push_back("void a_kernel_whose_name_is_much_longer_than_the_terminal_allows_" + std::to_string(i) + "(int)");
  for (std::size_t width : {16u, 48u, 80u}) {
    const std::vector<std::string> shown = shortenNames(names, width);
    ASSERT_EQ(shown.size(), names.size());
    EXPECT_EQ(std::set<std::string>(shown.begin(), shown.end()).size(), names.size()) << "width " << width;
  }
  // The same name twice reads the same (no back-off for it).
  const std::vector<std::string> twice = shortenNames({names[0], names[0]}, 48);
  EXPECT_EQ(twice[0], twice[1]);
  // A kernel is a row per arch: its name reads one way on every row, however
  // the names between its rows collide (each name is shortened once).
  std::vector<std::string> rows;
  for (int arch = 0; arch < 3; ++arch) rows.insert(rows.end(), names.begin(), names.end());
  for (std::size_t width : {16u, 48u, 80u}) {
    const std::vector<std::string> shown = shortenNames(rows, width);
    for (std::size_t i = 0; i < names.size(); ++i) {
      EXPECT_EQ(shown[i], shown[i + names.size()]) << "width " << width;
      EXPECT_EQ(shown[i], shown[i + 2 * names.size()]) << "width " << width;
    }
    // Each row shows what its name shows among the distinct names.
    EXPECT_EQ(std::vector<std::string>(shown.begin(), shown.begin() + names.size()), shortenNames(names, width));
  }
}

// CUTLASS-like names that differ only deep inside, each at several places
// (as libtorch_cuda.so's do): cut around where they differ, they still read
// alike, and the last resort is a number, never the whole name (13,000
// columns in that library's table before).
TEST(ShortenNames, NamesAlikeWhereverTheyAreCutAreNumberedNotShownWhole) {
  auto tuple = [](int a, int b, int c) {
    return "cute::tuple<cute::C<" + std::to_string(a) + ">, cute::tuple<cute::C<" + std::to_string(b) + ">, cute::C<" +
           std::to_string(c) + ">>>";
  };
  std::vector<std::string> names;
  for (int i = 0; i < 4; ++i)
    for (int tu = 1; tu <= 4; ++tu)
      names.push_back("void cutlass::device_kernel<" + std::to_string(i) + ", cutlass::gemm::GemmUniversal<" +
                      tuple(i, tu, i * 3) + ", " + tuple(i + 1, 2, tu) + ", " + tuple(7, i, 9) + ">>(float*)");
  for (std::size_t width : {24u, 40u, 60u}) {
    bool numbered = false;
    const std::vector<std::string> shown = shortenNames(names, width, &numbered);
    EXPECT_EQ(numbered, width == 24u) << "width " << width;  // wider, the cuts around the differences differ
    EXPECT_EQ(std::set<std::string>(shown.begin(), shown.end()).size(), names.size()) << "width " << width;
    std::size_t tagged = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
      EXPECT_LE(shown[i].size(), width) << shown[i];
      tagged += shown[i].find('~') != std::string::npos;
    }
    EXPECT_EQ(tagged > 0, numbered);
    // Numbers in the order of the whole names: of two names showing one text
    // but for the number, the smaller name has the smaller number.
    for (std::size_t a = 0; a < names.size(); ++a)
      for (std::size_t b = 0; b < names.size(); ++b) {
        const std::size_t ta = shown[a].rfind('~'), tb = shown[b].rfind('~');
        if (a == b || ta == std::string::npos || tb == std::string::npos ||
            shown[a].substr(0, ta) != shown[b].substr(0, tb))
          continue;
        EXPECT_EQ(names[a] < names[b], std::stoi(shown[a].substr(ta + 1)) < std::stoi(shown[b].substr(tb + 1)));
      }
  }
  bool numbered = true;
  EXPECT_EQ(shortenNames(names, 0, &numbered), names);  // --wide: whole, nothing numbered
  EXPECT_FALSE(numbered);
}

}  // namespace
}  // namespace regscope
