// Measuring for advise: edited texts through the analysis pipeline (each an
// edited-text job of the same file), figures from its reports, and matching a
// measured kernel to the original's.
#include <algorithm>

#include "advise_internal.h"
#include "regscope/advise/advise.h"

namespace regscope {

const KernelFigures *matchKernel(const KernelFigures &kernel, const std::vector<KernelFigures> &measured,
                                 const std::string &original, const clang::tooling::Replacements &edit) {
  for (const KernelFigures &m : measured)
    if (m.mangled == kernel.mangled && m.arch == kernel.arch) return &m;
  // Renamed or re-typed: the kernel declared where this one was, after the edit.
  if (kernel.line <= 0) return nullptr;
  std::size_t offset = 0;
  for (int line = 1; line < kernel.line && offset != std::string::npos; ++line) {
    offset = original.find('\n', offset);
    if (offset != std::string::npos) ++offset;
  }
  if (offset == std::string::npos) return nullptr;
  const unsigned moved = edit.getShiftedCodePosition(static_cast<unsigned>(offset));
  const std::string edited = applyEdit(original, edit);
  const int line = 1 + static_cast<int>(std::count(edited.begin(),
                                                   edited.begin() + std::min<std::size_t>(moved, edited.size()), '\n'));
  const KernelFigures *found = nullptr;
  for (const KernelFigures &m : measured) {
    if (m.arch != kernel.arch || m.line != line) continue;
    if (found) return nullptr;  // two kernels on that line: no unique match
    found = &m;
  }
  return found;
}

std::vector<KernelFigures> figuresFromReport(const Report &report) {
  std::vector<KernelFigures> out;
  for (const KernelReport &k : report.kernels)
    if (std::optional<KernelFigures> figures = measuredFigures(k)) out.push_back(std::move(*figures));
  return out;
}

namespace advise_detail {

Measurement measurementOf(const Report &report) {
  Measurement m;
  m.ok = report.errors.empty();
  for (const InputError &e : report.errors)
    m.error += (m.error.empty() ? "" : "\n") + (e.arch.empty() ? "" : "[" + e.arch + "] ") + e.message;
  // A kernel whose figures were not all read (or cannot be) measures nothing:
  // an edit is never judged on a figure that is not there (issue 21).
  for (const KernelReport &k : report.kernels)
    if (k.summary.limiter == Limiter::Unknown || !k.impossible.empty()) {
      m.ok = false;
      m.error += std::string(m.error.empty() ? "" : "\n") + "[" + k.record.arch + "] kernel " + k.record.demangled +
                 ": " + (k.impossible.empty() ? "figures unknown" : k.impossible);
    }
  if (m.ok) m.kernels = figuresFromReport(report);
  return m;
}

}  // namespace advise_detail

std::vector<Measurement> measureTexts(const AdviseInput &input, const std::vector<std::string> &texts) {
  if (texts.empty()) return {};
  std::vector<SourceJob> jobs;
  for (const std::string &text : texts) {
    jobs.push_back(input.job);
    jobs.back().edited_text = text;
  }
  std::vector<Measurement> out;
  for (const Report &report : analyzeEach(jobs, input.options)) out.push_back(advise_detail::measurementOf(report));
  return out;
}

}  // namespace regscope
