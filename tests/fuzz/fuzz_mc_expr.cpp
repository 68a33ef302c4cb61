// The LLVM 20+ expression evaluator: the first line is the expression, each
// further line "NAME, EXPR" a .set symbol. Every symbol is evaluated too, and
// evaluating twice must give the same answer (the memo must not change it).
#include <map>

#include "fuzz_util.h"
#include "regscope/backends/amd/mc_expr.h"
#include "regscope/target/amdgpu.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  std::string_view input = fuzz::text(data, size);
  const std::size_t eol = input.find('\n');
  const std::string_view expression = input.substr(0, eol);
  std::map<std::string, std::string> symbols;
  for (std::size_t at = eol == std::string_view::npos ? input.size() : eol + 1; at < input.size();) {
    std::size_t next = input.find('\n', at);
    if (next == std::string_view::npos) next = input.size();
    const std::string_view line = input.substr(at, next - at);
    if (const std::size_t comma = line.find(','); comma != std::string_view::npos)
      symbols[std::string(line.substr(0, comma))] = std::string(line.substr(comma + 1));
    at = next + 1;
  }
  for (const AmdArch *target : {findAmdArch("gfx90a"), findAmdArch("gfx1100"), static_cast<const AmdArch *>(nullptr)}) {
    McExprEvaluator evaluator(symbols, target);
    const McExprValue first = evaluator.evaluate(expression);
    for (const auto &[name, definition] : symbols) evaluator.evaluate(name);
    const McExprValue again = evaluator.evaluate(expression);
    if (first.value != again.value && first.problem != McExprProblem::TooDeep) __builtin_trap();
  }
  return 0;
}
