// Where a library's words to the user go. The command line prints them on
// stderr; tests collect them. Every stage that speaks takes one of these
// rather than writing to std::cerr itself.
#pragma once

#include <functional>
#include <string>

namespace regscope {

struct Messages {
  // "regscope: warning: TEXT", the input's names made visible (support/escape.h).
  std::function<void(const std::string &)> warning;
  // "regscope: error: TEXT", its own line breaks kept.
  std::function<void(const std::string &)> error;
  // "regscope: TEXT", made visible (--verbose: which config is used).
  std::function<void(const std::string &)> note;
  // "regscope: TEXT" exactly as given (progress of a gate or baseline run).
  std::function<void(const std::string &)> plain;
};

}  // namespace regscope
