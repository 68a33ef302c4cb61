#!/usr/bin/env bash
# Records what one regscope binary prints for a fixed set of runs, so that a restructuring can be
# checked byte for byte against the binary before it (issue 23: "behaviour stays exactly as it is").
#   scripts/compare-outputs.sh record DIR REGSCOPE [COMPILE_DB]   write DIR/<case>.{out,err,rc}
#   scripts/compare-outputs.sh check  DIR REGSCOPE [COMPILE_DB]   run the same cases, diff against DIR
# The cases: parse of every file under fixtures/ (JSON), occupancy and table on each vendor's archs,
# analyze of the reference kernels (AMD JSON, NVIDIA, Intel), explain and kernels list, and, given a
# compile database (a real project: docs/real-projects.md builds HeCBench's), analyze -p of it in JSON.
# Temporary directory names (regscope-XXXXXX) are the only thing normalised.
set -uo pipefail
mode=${1:?record|check}; dir=${2:?DIR}; bin=$(realpath "${3:?REGSCOPE}"); db=${4:-}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache TMPDIR=$work/tmp
mkdir -p "$TMPDIR"
if [ "$mode" = record ]; then mkdir -p "$dir"; out=$dir; else out=$work/new; mkdir -p "$out"; fi

one() {  # one NAME ARGS...: run regscope from the repository root
  local name=$1; shift
  (cd "$root" && "$bin" "$@" > "$out/$name.out" 2> "$out/$name.err"; echo $? > "$out/$name.rc")
  sed -i -E 's/regscope-[A-Za-z0-9]{6}/regscope-XXXXXX/g' "$out/$name.out" "$out/$name.err"
}

while IFS= read -r f; do  # named by the fixture's path, so that a fixture added later shifts no other case
  one "parse-$(printf %s "${f#fixtures/}" | tr -c 'A-Za-z0-9._-' _)" parse "$f" --format json
done < <(cd "$root" && find fixtures -type f ! -name '*.md' ! -name '*.py' ! -name '*.sh' ! -name '.clang-format' | sort)
one parse-dir-hipcc parse fixtures/hipcc-5.2.3 --format json
for arch in gfx906 gfx908 gfx90a gfx942 gfx950 gfx1030 gfx1100 sm_70 sm_80 sm_90 pvc; do
  one "table-$arch" table --arch "$arch"
done
one occ-amd occupancy --arch gfx90a --vgprs 72 --sgprs 101 --lds 13000 --block-size 256 --format json
one occ-amd-text occupancy --arch gfx942 --vgprs 130 --block-size 1024
one occ-nv occupancy --arch sm_80 --registers 33 --block-size 256 --format json
one occ-nv-text occupancy --arch sm_90 --registers 96 --smem 30000 --dynamic-smem 20000 --block-size 128
one occ-intel occupancy --arch pvc --grf 256 --simd 16 --slm 65536 --block-size 256 --format json
one kernels-list kernels list
one analyze-amd analyze kernels/lbm/lbm.hip kernels/laplacian/laplacian.hip kernels/wideload/wideload.hip --no-cache --format json
one analyze-amd-text analyze kernels/bitonic/bitonic.hip kernels/unroll/ax.hip --no-cache --offload-arch gfx90a --offload-arch gfx942
one analyze-csv analyze kernels/wideload/wideload.hip --no-cache --format csv
one analyze-sarif analyze kernels/lbm/lbm.hip --no-cache --format sarif
one analyze-md analyze kernels/laplacian/laplacian.hip --no-cache --format markdown
one analyze-nv analyze fixtures/src/cuda_probe.cu --no-cache --cuda-arch sm_90 --cuda-arch sm_80 --format json
one analyze-intel analyze kernels/unroll/ax.cl --no-cache --intel-device pvc --grf both --format json
one explain-lbm explain kernels/lbm/lbm.hip --format json
one explain-lbm-text explain kernels/lbm/lbm.hip
one advise-lbm advise kernels/lbm/lbm.hip --format json
if [ -n "$db" ]; then one analyze-db analyze -p "$db" --no-cache -j 2 --format json; fi

if [ "$mode" = check ]; then
  n=$(ls "$dir" | wc -l); bad=0
  for f in "$dir"/*; do
    b=$(basename "$f")
    if [ -z "$db" ] && [[ $b == analyze-db.* ]]; then n=$((n - 1)); continue; fi  # recorded with a database
    if ! cmp -s "$f" "$out/$b"; then bad=$((bad + 1)); echo "differs: $b"; diff "$f" "$out/$b" | head -5; fi
  done
  echo "compare-outputs: $((n - bad)) of $n files identical"
  [ $bad = 0 ]
fi
