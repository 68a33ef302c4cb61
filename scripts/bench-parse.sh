#!/usr/bin/env bash
# Benchmark (not a test): `regscope parse` throughput and peak memory on large
# generated inputs, each at a small and a large size so that memory growth
# with the input shows:
#   log  a build log: 100 copies of hipcc 5.2.3's remarks for the probe kernels
#        (fixtures/hipcc-5.2.3/probe.remarks.txt, 12 functions each, under new
#        names: about 1 MB) spread through compiler chatter (warnings, source
#        lines, make's progress lines) up to SIZE MB: the kernels kept stay the same
#   .s   device assembly: copies of fixtures/hipcc-5.2.3/lbm-gfx90a.s, each
#        kernel renamed, up to SIZE MB (so the kernels kept grow with it)
# Prints MB/s (input bytes / wall time, best of RUNS), the same over CPU time
# (user + sys: what a loaded machine distorts least) and the peak RSS.
#
# Usage: scripts/bench-parse.sh [RUNS] [LOG_MB] [ASM_MB]   (defaults: 3 100 50)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
log_mb=${2:-100}
asm_mb=${3:-50}
regscope=$(realpath "${REGSCOPE:-build/regscope}")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

make_log() {  # MB -> file
  local out=$scratch/build-$1.log
  awk -v mb="$1" -v src=fixtures/hipcc-5.2.3/probe.remarks.txt '
    BEGIN {
      while ((getline line < src) > 0) block[++n] = line
      target = mb * 1048576; every = int(target / 100)
      chatter[1] = "[ 42%%] Building HIP object src/CMakeFiles/app.dir/solver/kernels_%d.hip.o"
      chatter[2] = "/src/app/include/util.h:%d:10: warning: unused variable '\''tmp'\'' [-Wunused-variable]"
      chatter[3] = "    %d | int tmp = 0;"
      while (size < target) {
        if (kernels < 100 && size >= kernels * every) {
          kernels++
          for (i = 1; i <= n; i++) {
            l = block[i]
            if (l ~ /Function Name: /) sub(/Function Name: _Z/, "Function Name: _Z" kernels "_", l)
            print l; size += length(l) + 1
          }
        }
        l = sprintf(chatter[(size % 3) + 1], size % 997); print l; size += length(l) + 1
      }
    }' >"$out"
  echo "$out"
}

make_asm() {  # MB -> file
  local out=$scratch/device-$1.s src=fixtures/hipcc-5.2.3/lbm-gfx90a.s i=0
  local target=$(($1 * 1048576))
  : >"$out"
  while [ "$(stat -c %s "$out")" -lt "$target" ]; do
    i=$((i + 1))
    # _Z6kernel... -> _Z11kernel00001...: the same mangling, one name per copy
    sed "s/_Z6kernel/_Z11kernel$(printf %05d $i)/g" "$src" >>"$out"
  done
  echo "$out"
}

measure() {  # label file args...
  local label=$1 file=$2 best="" cpu="" peak=0
  shift 2
  for ((r = 0; r < runs; r++)); do
    /usr/bin/time -f '%e %M %U %S' -o "$scratch/time" "$regscope" parse "$file" "$@" --format json >/dev/null 2>"$scratch/err" ||
      { echo "bench-parse: regscope parse $file failed:" >&2; head -5 "$scratch/err" >&2; exit 1; }
    read -r secs kb user sys <"$scratch/time"
    if [ -z "$best" ] || awk "BEGIN { exit !($secs < $best) }"; then best=$secs; fi
    local c
    c=$(awk "BEGIN { print $user + $sys }")
    if [ -z "$cpu" ] || awk "BEGIN { exit !($c < $cpu) }"; then cpu=$c; fi
    [ "$kb" -gt "$peak" ] && peak=$kb
  done
  local mb
  mb=$(awk "BEGIN { print $(stat -c %s "$file") / 1048576 }")
  printf '%-5s %7.1f MB  wall %6.2f s %7.1f MB/s  CPU %6.2f s %7.1f MB/s  peak RSS %5.0f MB\n' "$label" "$mb" \
    "$best" "$(awk "BEGIN { print ($best > 0 ? $mb / $best : 0) }")" \
    "$cpu" "$(awk "BEGIN { print ($cpu > 0 ? $mb / $cpu : 0) }")" "$(awk "BEGIN { print $peak / 1024 }")"
}

printf 'load average %s; best of %d\n' "$(cut -d' ' -f1-3 /proc/loadavg)" "$runs"
small=$(( log_mb >= 20 ? log_mb / 10 : 2 ))
measure "log" "$(make_log "$small")" --arch gfx90a
measure "log" "$(make_log "$log_mb")" --arch gfx90a
small=$(( asm_mb >= 10 ? asm_mb / 10 : 1 ))
measure ".s" "$(make_asm "$small")"
measure ".s" "$(make_asm "$asm_mb")"
