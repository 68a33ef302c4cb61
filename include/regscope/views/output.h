// Where a view goes: the format the user chose, rendered for the terminal or
// a file, written to stdout or (atomically) to the -o file.
#pragma once

#include <string>
#include <vector>

#include "regscope/views/view.h"

namespace regscope {

// --format / -o / --color / --name-width, as every subcommand that prints a view takes them.
struct OutputOptions {
  std::string format = "text";
  std::string path;  // -o; empty: stdout
  std::string color = "auto";
  int name_width = -1;  // --name-width; -1: fit the terminal
  bool wide = false;    // --wide: every column in full, whatever the width
};

// --color: "always", "never", or "auto" (a terminal, unless NO_COLOR is set
// or TERM is dumb).
bool useColor(const std::string &mode, bool to_terminal);

// The render options for `options` writing to a terminal or not (colour,
// terminal width, the working directory and the repository root SARIF
// paths are relative to). Throws regscope::Error for an unknown format, or
// HTML bound for a terminal.
RenderOptions renderOptionsFor(const OutputOptions &options, Format format, bool to_terminal);

// Renders the view in the chosen format to stdout or (atomically) to the -o
// file. Throws regscope::Error when it cannot be written whole.
void emit(const OutputOptions &options, const View &view);

// At start-up: a closed stdout (`regscope ... >&-`) is remembered and
// /dev/null put in its place, so no file opened during the run takes
// descriptor 1 and receives the report; emit then fails with exit 2.
void guardStdout();

// Refuses an -o path that is one of the inputs, a directory, or in a
// directory that does not exist (before any compile runs). Throws regscope::Error.
void refuseOverwritingInputs(const std::vector<std::string> &files, const std::string &output);

}  // namespace regscope
