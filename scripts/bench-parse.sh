#!/usr/bin/env bash
# Benchmark (not a test): `regscope parse` throughput and peak memory on large
# generated inputs, each at a small and a large size so that memory growth
# with the input shows:
#   log  a build log: 100 copies of hipcc 5.2.3's remarks for the probe kernels
#        (fixtures/hipcc-5.2.3/probe.remarks.txt, 12 remark blocks, each block
#        under a name of its own: 1200 kernels, about 1 MB) spread through
#        compiler chatter (warnings, source lines, make's progress lines) up to
#        SIZE MB: the kernels kept stay the same at every size
#   .s   device assembly: copies of fixtures/hipcc-5.2.3/lbm-gfx90a.s, each
#        kernel renamed, up to SIZE MB (so the kernels kept grow with it)
#   fat  a host object whose .hip_fatbin holds SIZE MB of offload bundles: the
#        bundle hipcc 5.2.3 wrote into fixtures/hipcc-5.2.3/probe-host.o (the
#        probe kernels for gfx908 and gfx90a), repeated at the section's 4096-byte
#        alignment as a linker concatenates the bundles of its objects, put
#        back into that object with objcopy. Every copy holds the same kernels,
#        so the kernels kept stay the same at every size.
# Prints MB/s over the wall time and over the CPU time (user + sys: what a
# loaded machine distorts least), each the median of RUNS, and the largest
# peak RSS of the runs (/usr/bin/time's %M).
#
# Usage: scripts/bench-parse.sh [RUNS] [LOG_MB] [ASM_MB] [FAT_MB]   (defaults: 5 100 50 200)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
runs=${1:-5}
log_mb=${2:-100}
asm_mb=${3:-50}
fat_mb=${4:-200}
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
        if (copies < 100 && size >= copies * every) {
          copies++
          for (i = 1; i <= n; i++) {
            l = block[i]
            # the fixture holds two archs'"'"' blocks of the same kernels: one name per block
            if (l ~ /Function Name: /) sub(/Function Name: _Z/, "Function Name: _Z" (++blocks) "_", l)
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

make_fat() {  # MB -> file
  local out=$scratch/host-$1.o src=$scratch/probe-host.o
  cp fixtures/hipcc-5.2.3/probe-host.o "$src"  # objcopy rewrites the file it dumps from
  objcopy --dump-section .hip_fatbin="$scratch/bundle" "$src"
  # pad the bundle to the section's 4096-byte alignment, then repeat it
  truncate -s $(( ($(stat -c %s "$scratch/bundle") + 4095) / 4096 * 4096 )) "$scratch/bundle"
  local copies=$(( $1 * 1048576 / $(stat -c %s "$scratch/bundle") ))
  for ((i = 0; i < copies; i += 64)); do
    for ((j = i; j < i + 64 && j < copies; j++)); do cat "$scratch/bundle"; done
  done >"$scratch/fatbin"
  objcopy --update-section .hip_fatbin="$scratch/fatbin" "$src" "$out"
  rm -f "$scratch/bundle" "$scratch/fatbin" "$src"
  echo "$out"
}

measure() {  # label file args...
  local label=$1 file=$2 peak=0
  shift 2
  : >"$scratch/wall"
  : >"$scratch/cpu"
  for ((r = 0; r < runs; r++)); do
    /usr/bin/time -f '%e %M %U %S' -o "$scratch/time" "$regscope" parse "$file" "$@" --format json >/dev/null 2>"$scratch/err" ||
      { echo "bench-parse: regscope parse $file failed:" >&2; head -5 "$scratch/err" >&2; exit 1; }
    read -r secs kb user sys <"$scratch/time"
    echo "$secs" >>"$scratch/wall"
    awk "BEGIN { print $user + $sys }" >>"$scratch/cpu"
    [ "$kb" -gt "$peak" ] && peak=$kb
  done
  local mb wall cpu
  mb=$(awk "BEGIN { print $(stat -c %s "$file") / 1048576 }")
  wall=$(median <"$scratch/wall")
  cpu=$(median <"$scratch/cpu")
  printf '%-5s %7.1f MB  wall %6.2f s %7.1f MB/s  CPU %6.2f s %7.1f MB/s  peak RSS %5.0f MB\n' "$label" "$mb" \
    "$wall" "$(awk "BEGIN { print ($wall > 0 ? $mb / $wall : 0) }")" \
    "$cpu" "$(awk "BEGIN { print ($cpu > 0 ? $mb / $cpu : 0) }")" "$(awk "BEGIN { print $peak / 1024 }")"
  rm -f "$file"
}

printf 'load average %s; median of %d; %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" "$runs" "$regscope"
small=$(( log_mb >= 20 ? log_mb / 10 : 2 ))
measure "log" "$(make_log "$small")" --arch gfx90a
measure "log" "$(make_log "$log_mb")" --arch gfx90a
small=$(( asm_mb >= 10 ? asm_mb / 10 : 1 ))
measure ".s" "$(make_asm "$small")"
measure ".s" "$(make_asm "$asm_mb")"
small=$(( fat_mb >= 20 ? fat_mb / 10 : 2 ))
measure "fat" "$(make_fat "$small")"
measure "fat" "$(make_fat "$fat_mb")"
printf 'load average %s at the end\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
