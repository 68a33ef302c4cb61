// The collect stage's vendor-neutral part: the merge step that joins facts
// per (kernel, arch), and what every backend's collect step shares (source
// lines, the source reader). Each backend's readers of its compiler's output
// are in include/regscope/backends/<vendor>/collect.h.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/collect/kernel_record.h"
#include "regscope/driver/driver.h"

namespace regscope {

// Joins the sets into one record per (kernel, arch), in first-seen order.
// Earlier sets take precedence; a figure two sources disagree on becomes a
// warning on the record. Non-kernel functions are dropped.
std::vector<KernelRecord> mergeFacts(const std::vector<FactSet> &sets);

// Where a kernel is declared. The compiler points at the body's opening brace,
// which can be lines after the name; this walks back from `brace_line` (1-based)
// through the tokens of `source` to the kernel's name. Returns brace_line when
// the name is not found.
int findDeclarationLine(std::string_view source, int brace_line, const std::string &base_name);

// ---- One compiler run, collected (each backend's collect step) ----

// A source file's text, or nullopt when there is no such file. The pipeline
// supplies it; the collect stage does no I/O of its own.
using SourceReader = std::function<std::optional<std::string>(const std::string &path)>;

struct CollectedRun {
  std::vector<KernelRecord> records;
  std::string producer;  // the compiler that wrote the code: "clang version 15.0.6", "Cuda compilation tools, ..."
};

// The records' remark paths resolved against the compiled source's
// directories, and each line moved from the body's brace to the declaration.
void resolveDeclarations(std::vector<KernelRecord> &records, const std::string &compiled_source,
                         const SourceReader &read);

}  // namespace regscope
