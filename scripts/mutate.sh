#!/usr/bin/env bash
# Mutation testing: plants each one-line bug of scripts/mutants.txt in turn, rebuilds incrementally,
# runs the fast test subset, and says whether the suite noticed (killed) or not (survived).
# docs/testing.md ("Mutation testing") has the list, the subset and the last score.
#
#   scripts/mutate.sh [--build DIR] [--list FILE] [--filter GTEST_FILTER] [--check] [ID...]
#
#   --build DIR   the configured build directory (default build); its regscope and regscope_tests
#                 targets are rebuilt after each change (a recompile of one file and a relink)
#   --list FILE   the mutants (default scripts/mutants.txt)
#   --filter F    the gtest filter of the fast subset (default: $REGSCOPE_MUTATION_FILTER, else the
#                 one below)
#   --check       only check that every mutant's original text is where the list says (no build)
#   ID...         run only these mutants
#
# Safety: one source file is changed at a time, after a copy of it is kept in DIR/mutate/; the copy is
# put back when the mutant is done, on any exit, on Ctrl-C (INT), TERM and HUP, and at the start of
# the next run if a run was killed outright (kill -9). The tree is never left modified. At the end the
# original is rebuilt (ccache hits), so DIR's binaries are the tree's again.
# Exit status: 0 when every mutant was killed; 1 when one survived (or was stale); 2 on bad usage.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# The fast subset: model, target tables, parsers, gate, cache, formats and the pinned rules; no test
# that runs a GPU compiler, except the compiler sweep (the compilers' printed occupancy, an oracle) and
# one CSV check. 145 tests, 8-18 s on the shared 2-core machine (2026-11-25).
DEFAULT_FILTER='LaunchRead.*:LaunchDynamicShared.*:LaunchAst.*:Unknown.ALaunchNotReadIsUnknownUntilTheFlagGivesIt:VgprTerm.*:AgprRule.*:SgprTerm.*:LdsTerm.*:Occupancy.*:Rdna.*:ArchTable.*:RemarkText.*:RemarkYaml.*:LineSplitter.*:ChunkedParse.*:Asm.*:Merge.*:Names.*:DeclarationLine.*:Config.*:Thresholds.*:Baseline.*:CleanFlags.*:Database.*:Github.*:Junit.*:Markdown.*:Sarif.*:Findings.*:DependencyFile.*:Cache.*:CudaRuntime.*:Ptxas.*:Ptx.*:CodeObject.*:CompilerSweep.*:McExpr.*:CudaModel.*:Csv.*:OclocLog.*:ZeInfo.*:Zebin.*:CollectOcloc.*:IntelModel.*:OccupancyCurves.*:Pinned.*:IsaFixtures.*:IsaNvdisasmRecorded.*:Html.*:Allocation.*:TritonCache.*:Cubin.*:Unknown.*:FillClaim.*:ShardParse.AShardWithAnEdited*:ShardParse.ShardsOfADirectory*:HostileCli.OccupancyWithSharedMemoryBeyondInt:TritonTree.*:TreeKinds.*:GateRun.*:OptimisationLevel.*:Escape.*:CompilerNote.*:CompressedBundle.*:WheelTree.*:SaidOnce.*:McpArgs.*:McpCancel.*:TextWidth.*:SpillSites.*:NvidiaSpillSites.*:ErrorMessages.*:ShortenNames.*:Output.*:AtomicWrite.*'
build=build list=scripts/mutants.txt filter=${REGSCOPE_MUTATION_FILTER:-$DEFAULT_FILTER} check=0 only=()
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=${2:?}; shift 2 ;;
    --list) list=${2:?}; shift 2 ;;
    --filter) filter=${2:?}; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "mutate: unknown option $1" >&2; exit 2 ;;
    *) only+=("$1"); shift ;;
  esac
done
[ -f "$list" ] || { echo "mutate: no mutant list $list" >&2; exit 2; }
[ "$check" = 1 ] || [ -x "$build/tests/regscope_tests" ] ||
  { echo "mutate: $build/tests/regscope_tests is not built (configure and build as docs/testing.md says)" >&2; exit 2; }

work=$build/mutate
mkdir -p "$work"
active=$work/active   # "PATH" of the file now mutated; its original is $work/original
restore() {
  if [ -f "$active" ]; then
    local path; path=$(cat "$active")
    cp "$work/original" "$root/$path" && rm -f "$active" "$work/original"  # a new mtime: make rebuilds it
  fi
}
trap 'restore; echo "mutate: interrupted; the tree is restored" >&2; exit 130' INT TERM HUP
trap restore EXIT
restore  # a run killed outright left its mutant in place

# apply FILE ORIGINAL REPLACEMENT N: exit 0 changed, 3 not found (stale), 4 ambiguous without N
apply() {
  python3 - "$@" <<'PY'
import sys
path, original, replacement, nth = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
import re
text = open(path, encoding="utf-8").read()
# <NL> spans a line break and the indentation around it (a table reformatted one field per line);
# the replacement's <NL>s take the matched breaks back in order.
pattern = r"(\s*\n\s*)".join(re.escape(part) for part in original.split("<NL>"))
matches = list(re.finditer(pattern, text))
count = len(matches)
if count == 0:
    sys.exit(3)
if nth == "" and count > 1:
    sys.exit(4)
n = int(nth or 1)
if n > count:
    sys.exit(3)
m = matches[n - 1]
parts = replacement.split("<NL>")
breaks = list(m.groups()) + ["\n"] * len(parts)
replaced = parts[0] + "".join(brk + part for brk, part in zip(breaks, parts[1:]))
if sys.argv[5:] != ["--dry"]:
    open(path, "w", encoding="utf-8").write(text[:m.start()] + replaced + text[m.end():])
PY
}

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }

report=$work/report.md
[ "$check" = 1 ] || printf '| mutant | file | result | build s | tests s |\n|---|---|---|---|---|\n' > "$report"
killed=0 survived=0 stale=0 invalid=0 total=0 survivors=()
while IFS= read -r line || [ -n "$line" ]; do
  case $line in ''|'#'*) continue ;; esac
  # ID @@ FILE @@ ORIGINAL @@ REPLACEMENT [@@ N]
  rest=$line; fields=()
  while [[ $rest == *' @@ '* ]]; do fields+=("${rest%%' @@ '*}"); rest=${rest#*' @@ '}; done
  fields+=("$rest")
  [ "${#fields[@]}" -ge 4 ] || { echo "mutate: bad line: $line" >&2; exit 2; }
  id=$(trim "${fields[0]}") file=$(trim "${fields[1]}") original=${fields[2]} replacement=${fields[3]}
  nth=$(trim "${fields[4]:-}")
  if [ "${#only[@]}" -gt 0 ] && [[ " ${only[*]} " != *" $id "* ]]; then continue; fi
  total=$((total + 1))
  if [ ! -f "$file" ]; then rc=3; else apply "$file" "$original" "$replacement" "$nth" --dry; rc=$?; fi
  if [ "$rc" != 0 ]; then
    why=$([ "$rc" = 4 ] && echo "ambiguous: the original text occurs more than once; give N" || echo "stale: the original text is not in $file")
    echo "STALE    $id: $why"; stale=$((stale + 1)); survivors+=("$id (stale)")
    [ "$check" = 1 ] || printf '| %s | %s | stale | | |\n' "$id" "$file" >> "$report"
    continue
  fi
  if [ "$check" = 1 ]; then echo "ok       $id"; continue; fi

  cp "$file" "$work/original" && echo "$file" > "$active"
  apply "$file" "$original" "$replacement" "$nth"
  t0=$(date +%s)
  if ! nice -n 5 cmake --build "$build" -j 2 --target regscope regscope_tests > "$work/$id.build.log" 2>&1; then
    t1=$(date +%s); restore
    echo "INVALID  $id: does not compile (see $work/$id.build.log)"; invalid=$((invalid + 1))
    printf '| %s | %s | does not compile | %s | |\n' "$id" "$file" "$((t1 - t0))" >> "$report"
    continue
  fi
  t1=$(date +%s)
  timeout 600 "$build/tests/regscope_tests" --gtest_filter="$filter" --gtest_brief=1 > "$work/$id.test.log" 2>&1
  trc=$?
  t2=$(date +%s)
  restore
  if [ "$trc" = 0 ]; then
    echo "SURVIVED $id ($file; build $((t1 - t0)) s, tests $((t2 - t1)) s)"; survived=$((survived + 1)); survivors+=("$id")
    result=survived
  else
    failed=$(grep -c '^\[  FAILED  \]' "$work/$id.test.log")
    echo "killed   $id (build $((t1 - t0)) s, tests $((t2 - t1)) s; $failed failing)"; killed=$((killed + 1))
    result="killed ($(grep -m1 -o '^\[  FAILED  \] [A-Za-z0-9_.]*' "$work/$id.test.log" | cut -c14-))"
  fi
  printf '| %s | %s | %s | %s | %s |\n' "$id" "$file" "$result" "$((t1 - t0))" "$((t2 - t1))" >> "$report"
done < "$list"

if [ "$check" = 1 ]; then
  echo "mutate: $total mutants, $stale stale"
  [ "$stale" = 0 ]; exit
fi
# The tree is the original again: rebuild it so that the build directory matches.
nice -n 5 cmake --build "$build" -j 2 --target regscope regscope_tests > "$work/final.build.log" 2>&1 ||
  echo "mutate: the final rebuild of the original failed (see $work/final.build.log)" >&2
score="$killed of $((total - invalid)) killed ($survived survived, $stale stale, $invalid did not compile)"
echo "mutate: $score; table: $report"
echo "score: $score" >> "$report"
[ "${#survivors[@]}" = 0 ] || echo "mutate: not killed: ${survivors[*]}"
[ "$survived" = 0 ] && [ "$stale" = 0 ]
