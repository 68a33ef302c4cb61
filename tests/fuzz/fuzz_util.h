// Shared by the libFuzzer targets. Each target feeds one parser the fuzzer's
// bytes and lets only regscope::Error (a bad input, reported as one line)
// through: a crash, a sanitizer report, an uncaught exception of any other
// type, a hang or an oversized allocation is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "regscope/support/error.h"

namespace regscope::fuzz {

inline std::string_view text(const std::uint8_t *data, std::size_t size) {
  return std::string_view(reinterpret_cast<const char *>(data), size);
}

// Runs `parse`; a regscope::Error is the documented answer to a bad input.
// Its message must be one line, as main prints it.
template <typename Parse>
void expectOnlyErrors(Parse parse) {
  try {
    parse();
  } catch (const Error &e) {
    const std::string_view message = e.what();
    if (message.empty() || message.find('\n') != std::string_view::npos) __builtin_trap();
  }
}

}  // namespace regscope::fuzz
