// Views: one per output (the kernel table, gate verdicts, the calculator, an
// arch's table, the reference kernels, runner results). Each builds what it
// says once, from the report or model result it is given, as a Document, a
// JSON document and, for the CI formats, findings. render() picks the writer;
// writers never parse and never branch on the view.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "regscope/describe/document.h"
#include "regscope/gate/rules.h"

namespace regscope {

enum class Format { Text, Json, Csv, Markdown, Sarif, Github, Junit, Html };
const char *formatName(Format format);
std::optional<Format> formatByName(const std::string &name);
// The CI formats need findings (CiReport).
bool isCiFormat(Format format);

// What the CI formats print: the findings, one test case per kernel and arch
// (JUnit), a summary table (markdown) and the compiler that ran.
struct CiCase {
  std::string file;
  int line = 0;
  std::string kernel;  // demangled
  std::string arch;
};
// An input that could not be analysed: a SARIF tool notification, an
// errored JUnit case, a line in markdown and GitHub annotations.
struct CiError {
  std::string file;
  std::string arch;  // empty: every arch
  std::string message;
};

struct CiReport {
  std::string title;  // "regscope analyze"
  std::vector<Verdict> findings;
  std::vector<CiCase> cases;
  std::vector<CiError> errors;
  Table summary;  // the markdown table
  std::string compiler_path, compiler_version;
};

class View {
 public:
  virtual ~View() = default;
  virtual Document document() const = 0;
  virtual nlohmann::json toJson() const = 0;
  // toJson() as --format json prints it. A view over a report of many kernels
  // writes them one at a time, never holding the whole document.
  virtual void writeJson(std::ostream &out) const;
  // Findings for SARIF, GitHub, JUnit and markdown; none for views without.
  virtual std::optional<CiReport> ci() const { return std::nullopt; }
  // The HTML page's data document (docs/html.md), which the templates render:
  // by default the document()'s lines, tables and notes; views over a report
  // add its kernels with their occupancy charts.
  virtual nlohmann::json page() const;
};

struct RenderOptions {
  bool color = false;
  // Kernel names in the terminal table: elided to this many characters; 0:
  // in full; -1: fit `terminal_width` (when known), else 48.
  int name_width = -1;
  // The width the text table and its notes fit: the terminal's, else
  // $COLUMNS, else 100; 0 (--wide): every column in full, nothing wrapped.
  int terminal_width = 0;
  // SARIF: files under `source_root` are written relative to it
  // (%SRCROOT%), others as absolute file:// URIs. Relative paths in findings
  // are relative to `working_directory`. Both absolute; empty: the working directory.
  std::string source_root;
  std::string working_directory;
};

// The view in `format`. Throws regscope::Error for a CI format of a view
// that has no findings.
std::string render(const View &view, Format format, const RenderOptions &options = {});
// The same, written to `out` as it is made.
void render(const View &view, Format format, const RenderOptions &options, std::ostream &out);

// A JSON document as regscope prints one: indented by 2, invalid UTF-8 (kernel
// names and paths are bytes from the user's files) as U+FFFD.
std::string dumpJson(const nlohmann::json &document);

}  // namespace regscope
