// Escaping names and paths from the input (kernel names, file names, compiler
// messages) for each place regscope's output goes, one function per context.
// The input is untrusted: a kernel name can hold ESC, OSC, BEL, CR, LF, C1
// controls or bidirectional overrides that would clear a terminal, set its
// title, reorder what a reviewer reads, or start a line "::error::" that a CI
// runner obeys as a workflow command. Writers apply these to every string of
// data they print; nothing else escapes.
//
// Every function first makes the text visible (terminal()):
//   - C0 controls and DEL: \n, \r, \t, else \xHH;
//   - C1 controls (U+0080-U+009F), bidirectional controls (U+061C, U+200E,
//     U+200F, U+202A-U+202E, U+2066-U+2069) and U+2028/U+2029: \u{HHHH};
//   - bytes that are not UTF-8: \xHH;
//   - a leading "::" (after blanks), which a CI runner would read as a
//     workflow command at the start of a line: its first ':' as \x3a.
// The context's own syntax is escaped after that.
#pragma once

#include <string>
#include <string_view>

namespace regscope::escape {

// One line of terminal text (a table cell, a note, a one-line diagnostic).
std::string terminal(std::string_view text);
// Text whose line breaks are its own (a diff, a multi-line diagnostic that
// quotes the compiler): LF and TAB are kept, every line is treated as
// terminal() treats one line, CR included.
std::string terminalLines(std::string_view text);
// As terminalLines, for one message: a line break is kept only where an
// indented line follows (a compiler's error lines quoted under regscope's);
// any other, a file or kernel name's own newline, is shown as \n, so that no
// name can print a line that reads as regscope's.
std::string terminalMessage(std::string_view text);
// One CSV field (RFC 4180): quoted when it holds ',' or '"'.
std::string csv(std::string_view field);
// Markdown text in a table cell or list item: '|', '<', '>', '\\', '`', '*',
// '_', '[' and ']' escaped so the data cannot make a link, an image, HTML or a
// new column.
std::string markdown(std::string_view text);
// Markdown inline code: `text`, with a fence longer than any backtick run
// inside, and '|' escaped (GitHub's tables split cells on it even there).
std::string markdownCode(std::string_view text);
// XML character data and attribute values: & < > " ' as entities.
std::string xml(std::string_view text);
// GitHub workflow commands (::error file=...::MESSAGE): the message's '%',
// CR and LF as %25, %0D, %0A, as the runner decodes them; other controls
// visible as in terminal().
std::string githubData(std::string_view text);
// A workflow command's property (file=, title=): also ':' and ',' as %3A, %2C.
std::string githubProperty(std::string_view text);

}  // namespace regscope::escape
