// Writes the reproducers of issue 16 (tests/hostile_inputs.h) as files under
// tests/fuzz/regressions/TARGET/, which every fuzz run replays:
//   regscope_hostile_inputs --write tests/fuzz/regressions
// With --check, exits 1 naming each committed file that differs from what
// the recipes build now (the ctest Fuzz.RegressionInputsAreCurrent).
#include <filesystem>
#include <fstream>
#include <iostream>

#include "hostile_inputs.h"

int main(int argc, char **argv) {
  namespace fs = std::filesystem;
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode != "--write" && mode != "--check") {
    std::cerr << "usage: regscope_hostile_inputs --write|--check DIR\n";
    return 2;
  }
  const fs::path dir = argv[2];
  int stale = 0;
  for (const regscope::hostile::Reproducer &r : regscope::hostile::reproducers()) {
    const fs::path file = dir / r.target / r.name;
    if (mode == "--write") {
      fs::create_directories(file.parent_path());
      std::ofstream(file, std::ios::binary) << r.bytes;
      continue;
    }
    std::ifstream in(file, std::ios::binary);
    const std::string committed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.is_open() || committed != r.bytes) {
      std::cerr << file.string() << ": differs from its recipe in tests/hostile_inputs.h (rerun with --write)\n";
      ++stale;
    }
  }
  return stale ? 1 : 0;
}
