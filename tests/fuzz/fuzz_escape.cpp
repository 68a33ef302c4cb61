// The output escapers (support/escape.h) over any bytes a kernel name or path
// can hold: none may let a raw control character, a C1 or bidirectional
// control, or a line opening "::" through (a crash is a finding too).
#include <cstring>

#include "fuzz_util.h"
#include "regscope/support/escape.h"

namespace {

// No byte below 0x20 (but those `kept`), no DEL, no UTF-8 C1 (C2 80-9F), no
// U+061C, U+200E/F, U+2028-202E, U+2066-2069; no line whose first non-blank
// characters are "::".
void check(const std::string &out, const char *kept) {
  bool line_start = true;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(out[i]);
    if ((c < 0x20 && !std::strchr(kept, c)) || c == 0x7f || c == 0) __builtin_trap();
    if (c == 0xc2 && i + 1 < out.size() && static_cast<unsigned char>(out[i + 1]) < 0xa0 &&
        static_cast<unsigned char>(out[i + 1]) >= 0x80)
      __builtin_trap();
    if (c == 0xd8 && i + 1 < out.size() && static_cast<unsigned char>(out[i + 1]) == 0x9c) __builtin_trap();
    if (c == 0xe2 && i + 2 < out.size()) {
      const unsigned char b = static_cast<unsigned char>(out[i + 1]), d = static_cast<unsigned char>(out[i + 2]);
      if (b == 0x80 && (d == 0x8e || d == 0x8f || (d >= 0xa8 && d <= 0xae))) __builtin_trap();
      if (b == 0x81 && d >= 0xa6 && d <= 0xa9) __builtin_trap();
    }
    if (line_start && c == ':' && i + 1 < out.size() && out[i + 1] == ':') __builtin_trap();
    if (c == '\n')
      line_start = true;
    else if (c != ' ' && c != '\t')
      line_start = false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  const std::string_view text = fuzz::text(data, size);
  check(escape::terminal(text), "");
  check(escape::terminalLines(text), "\n\t");
  check(escape::csv(text), "");
  check(escape::markdown(text), "");
  check(escape::markdownCode(text), "");
  check(escape::xml(text), "");
  check(escape::githubData(text), "");
  check(escape::githubProperty(text), "");
  return 0;
}
