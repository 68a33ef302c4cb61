#!/usr/bin/env bash
# Runs regscope's libFuzzer targets (tests/fuzz, docs/reliability.md).
#
#   scripts/fuzz.sh [--build DIR] [--seconds N] [--jobs J] [--timeout S] [--keep DIR] [--check] [TARGET...]
#
# For each target (all of tests/fuzz/targets.txt by default): first replays
# every seed and every regression input (tests/fuzz/regressions/TARGET/) one
# by one, then fuzzes for N seconds (default 60) from those seeds (inputs up
# to 128 KiB), under ASan and UBSan, with a 10 s limit per input and 256 MiB
# per allocation. Prints
# one line per target: executions, executions per second, libFuzzer's coverage (cov: edges, ft:
# features), the corpus grown, and the result. Exits 1 if any target found
# something; its reproducer is copied to DIR/fuzz-findings/.
#
#   --build DIR  the fuzz build (default build-fuzz), configured with
#                cmake -S . -B build-fuzz -DREGSCOPE_FUZZ=ON -DREGSCOPE_BUILD_TESTS=OFF \
#                      -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15
#                cmake --build build-fuzz --target fuzz_targets
#   --jobs J     targets run J at a time (default 1)
#   --timeout S  the limit per input in wall-clock seconds (default 10); raise it
#                on a machine whose cores are shared, where a fuzzer at nice 19 can
#                get 1% of a core and an input of 0.5 s CPU takes 50 s
#   --keep DIR   keep each target's grown corpus in DIR/TARGET (default: a temp dir, removed)
#   --check      exit 77 (ctest's skip) with a message when DIR holds no fuzz build;
#                REGSCOPE_FUZZ_SECONDS sets N (default 5), as the ctest Fuzz.ShortPass does
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build="$repo/build-fuzz"
seconds=60
jobs=1
timeout=10
keep=""
check=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$(cd "$2" 2>/dev/null && pwd || echo "$2"); shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --keep) mkdir -p "$2"; keep=$(cd "$2" && pwd); shift 2 ;;
    --check) check=1; seconds=${REGSCOPE_FUZZ_SECONDS:-5}; shift ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done

mapfile -t all < <(grep -E '^[a-z_]+ ' "$repo/tests/fuzz/targets.txt" | cut -d' ' -f1)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
  if [ ! -x "$build/tests/fuzz/fuzz_$t" ]; then
    if [ $check = 1 ]; then
      echo "fuzz.sh: skipped: no fuzz build in $build (fuzz_$t missing). Configure one with:"
      echo "  cmake -S . -B build-fuzz -DREGSCOPE_FUZZ=ON -DREGSCOPE_BUILD_TESTS=OFF -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15"
      echo "  cmake --build build-fuzz --target fuzz_targets"
      exit 77
    fi
    echo "fuzz.sh: $build/tests/fuzz/fuzz_$t is not built (see --help)" >&2
    exit 2
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/regscope-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The seed files of a target: its globs in targets.txt, then its regressions and seeds.
seeds() {
  local line
  line=$(grep -E "^$1 " "$repo/tests/fuzz/targets.txt" | cut -d' ' -f2-)
  (cd "$repo" && for f in $line tests/fuzz/regressions/"$1"/* tests/fuzz/seeds/"$1"/*; do
     [ -f "$f" ] && echo "$repo/$f"
   done) | sort -u
}

# One target: replay, then fuzz. Writes a summary line to $work/$t.summary.
run_target() {
  local t=$1 bin="$build/tests/fuzz/fuzz_$1" dir="$work/$1" corpus
  mkdir -p "$dir/artifacts"
  corpus=${keep:+$keep/$t}
  corpus=${corpus:-$dir/corpus}
  mkdir -p "$corpus"
  mapfile -t files < <(seeds "$t")
  local options=(-timeout="$timeout" -malloc_limit_mb=256 -rss_limit_mb=2048 -artifact_prefix="$dir/artifacts/")
  local result=clean
  # 1. Every seed and regression input, each whole (no -max_len truncation).
  if ! "$bin" "${options[@]}" -runs=1 "${files[@]}" >"$dir/replay.log" 2>&1; then result="replay FAILED"; fi
  # 2. Fuzz from them for the time given.
  if [ "$result" = clean ]; then
    local seeds_dir="$dir/seeds"
    mkdir -p "$seeds_dir"
    # Numbered: seeds from different folders can share a name (IGC's dump files do).
    local i=0 f
    for f in "${files[@]}"; do i=$((i + 1)); cp "$f" "$seeds_dir/$i-$(basename "$f")"; done
    if ! "$bin" "${options[@]}" -max_len=131072 -max_total_time="$seconds" -print_final_stats=1 "$corpus" "$seeds_dir" \
        >"$dir/fuzz.log" 2>&1; then
      result="FOUND"
    fi
  fi
  local log="$dir/fuzz.log"
  [ -f "$log" ] || log="$dir/replay.log"
  local execs rate cov ft
  execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$' || true)
  rate=$(grep -oE 'exec/s: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || true)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || true)
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || true)
  printf '%-12s %10s %7s %6s %7s %7s  %s\n' "$t" "${execs:--}" "${rate:--}" "${cov:--}" "${ft:--}" \
    "$(find "$corpus" -type f | wc -l)" "$result" >"$work/$t.summary"
  if [ "$result" != clean ]; then
    mkdir -p "$build/fuzz-findings/$t"
    cp "$dir"/artifacts/* "$build/fuzz-findings/$t/" 2>/dev/null || true
    cp "$log" "$build/fuzz-findings/$t/$(basename "$log")"
    grep -m1 -E 'ERROR|SUMMARY|deadly|Timeout|malloc' "$log" >>"$work/$t.summary" || true
  fi
}

running=0
for t in "${targets[@]}"; do
  run_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait

printf '%-12s %10s %7s %6s %7s %7s  %s\n' target executions exec/s cov ft corpus result
status=0
for t in "${targets[@]}"; do
  cat "$work/$t.summary"
  grep -q ' clean$' "$work/$t.summary" || status=1
done
[ $status = 0 ] || echo "fuzz.sh: findings copied to $build/fuzz-findings/" >&2
exit $status
