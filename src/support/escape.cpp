#include "regscope/support/escape.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace regscope::escape {
namespace {

std::string hexByte(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  return buf;
}

// The code point of the UTF-8 sequence at text[at], and its length; 0 for a
// byte that does not start a well-formed sequence (overlong, surrogate, past
// U+10FFFF, cut short).
std::size_t decode(std::string_view text, std::size_t at, std::uint32_t &cp) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  std::uint32_t min = 0;
  if (lead >= 0xC2 && lead <= 0xDF)
    length = 2, cp = lead & 0x1F, min = 0x80;
  else if (lead >= 0xE0 && lead <= 0xEF)
    length = 3, cp = lead & 0x0F, min = 0x800;
  else if (lead >= 0xF0 && lead <= 0xF4)
    length = 4, cp = lead & 0x07, min = 0x10000;
  else
    return 0;
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(at + i) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return length;
}

// C1 controls, the bidirectional controls and the Unicode line separators.
bool invisible(std::uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

enum class Breaks { Visible, Kept, Indented, Percent };

// terminal()'s rules; `breaks` says what becomes of LF (and TAB) and CR.
std::string visible(std::string_view text, Breaks breaks) {
  std::string out;
  out.reserve(text.size());
  bool line_start = true;  // only blanks so far on this line
  for (std::size_t at = 0; at < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[at]);
    if (line_start && c == ':' && at + 1 < text.size() && text[at + 1] == ':') {
      out += "\\x3a";  // "::" opening a line: a workflow command to a CI runner
      line_start = false;
      ++at;
      continue;
    }
    if (c != ' ' && c != '\t') line_start = false;
    // A kept break opens an indented continuation (a compiler's error lines under
    // regscope's); one followed by text is a name's own newline, which would
    // start a line that reads as regscope's ("regscope gate: pass"): shown escaped.
    const bool continuation =
        at + 1 == text.size() || text[at + 1] == ' ' || text[at + 1] == '\t' || text[at + 1] == '\n';
    if (c == '\n' && (breaks == Breaks::Kept || (breaks == Breaks::Indented && continuation))) {
      out += '\n';
      line_start = true;
    } else if (c == '\t' && (breaks == Breaks::Kept || breaks == Breaks::Indented)) {
      out += '\t';
    } else if ((c == '\n' || c == '\r') && breaks == Breaks::Percent) {
      out += c == '\n' ? "%0A" : "%0D";
    } else if (c == '%' && breaks == Breaks::Percent) {
      out += "%25";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      out += hexByte(c);
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      std::uint32_t cp = 0;
      const std::size_t length = decode(text, at, cp);
      if (length == 0) {
        out += hexByte(c);
      } else if (invisible(cp)) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "\\u{%04X}", static_cast<unsigned>(cp));
        out += buf;
        at += length;
        continue;
      } else {
        out.append(text.substr(at, length));
        at += length;
        continue;
      }
    }
    ++at;
  }
  return out;
}

}  // namespace

std::string terminal(std::string_view text) { return visible(text, Breaks::Visible); }

std::string terminalLines(std::string_view text) { return visible(text, Breaks::Kept); }

std::string terminalMessage(std::string_view text) { return visible(text, Breaks::Indented); }

std::string csv(std::string_view field) {
  std::string text = terminal(field);
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string markdown(std::string_view text) {
  std::string out;
  for (char c : terminal(text)) {
    if (c == '\\' || c == '|' || c == '<' || c == '>' || c == '`' || c == '*' || c == '_' || c == '[' || c == ']')
      out += '\\';
    out += c;
  }
  return out;
}

std::string markdownCode(std::string_view text) {
  std::string body;
  std::size_t run = 0, longest = 0;
  for (char c : terminal(text)) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    body += c == '|' ? std::string("\\|") : std::string(1, c);
  }
  const std::string fence(longest + 1, '`');
  // A space inside the fence where the text starts or ends with a backtick (CommonMark strips one).
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string xml(std::string_view text) {
  std::string out;
  for (char c : terminal(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string githubData(std::string_view text) { return visible(text, Breaks::Percent); }

std::string githubProperty(std::string_view text) {
  std::string out;
  for (char c : githubData(text)) out += c == ':' ? "%3A" : c == ',' ? "%2C" : std::string(1, c);
  return out;
}

}  // namespace regscope::escape
