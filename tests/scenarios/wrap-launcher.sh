# regscope wrap as a CMake compiler launcher, and regscope collect over the build.
# A CMake HIP project (two archs, a sub-directory, a relative include, a launch site, a host .cpp) is
# built three ways: plainly, through `regscope wrap --`, and through `regscope wrap -- ccache` (cold,
# then a clean rebuild from ccache's hits). collect's figures must equal analyze -p's on the same
# compile database; the build's own outputs and messages must be those of the plain build.
. "$(dirname "$0")/lib.sh"; need cmake make /usr/bin/clang++-15 g++; scratch

# ---- The project ----
mkdir -p p/src/sub p/include p/common rocm-root/lib && ln -s /usr/lib/x86_64-linux-gnu/cmake rocm-root/lib/cmake
lbm_src > p/src/lbm.hip
matmul_header > p/include/matmul.hpp
matmul_src > p/src/sub/matmul.hip
cat > p/common/scale.h <<'H'
// Reached from src/sub/scale.hip as "../../common/scale.h": a relative include.
#pragma once
__device__ inline float scaled(float x, float s) { return x * s; }
H
cat > p/src/sub/scale.hip <<'K'
#include <hip/hip_runtime.h>
#include "../../common/scale.h"
#define SCALE_BLOCK 128
__global__ void scale_kernel(float *p, float s) { p[blockIdx.x * SCALE_BLOCK + threadIdx.x] = scaled(p[blockIdx.x * SCALE_BLOCK + threadIdx.x], s); }
void scale(float *p, float s, int n) { scale_kernel<<<n / SCALE_BLOCK, SCALE_BLOCK>>>(p, s); }
K
cat > p/src/host.cpp <<'C'
// Host code only, compiled by the C++ compiler: never touched by the launcher.
int host_sum(const int *v, int n) { int s = 0; for (int i = 0; i < n; ++i) s += v[i]; return s; }
C
cat > p/CMakeLists.txt <<'C'
cmake_minimum_required(VERSION 3.21)
project(wrapped LANGUAGES CXX HIP)
set(CMAKE_HIP_STANDARD 17)
add_library(kernels OBJECT src/lbm.hip src/sub/matmul.hip src/sub/scale.hip src/host.cpp)
target_include_directories(kernels PRIVATE include)
C
cat > debian-hip.cmake <<C
set(CMAKE_HIP_COMPILER /usr/bin/clang++-15)
set(CMAKE_CXX_COMPILER /usr/bin/g++)
set(CMAKE_HIP_COMPILER_ROCM_ROOT $PWD/rocm-root)
set(CMAKE_HIP_FLAGS_INIT "--rocm-path=/usr --rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")
set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx908")
list(APPEND CMAKE_PREFIX_PATH /usr/lib/x86_64-linux-gnu/cmake)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON CACHE BOOL "")
execute_process(COMMAND /usr/bin/clang++-15 -print-resource-dir OUTPUT_VARIABLE _rd OUTPUT_STRIP_TRAILING_WHITESPACE)
set(HIP_CLANG_INCLUDE_PATH \${_rd}/include CACHE PATH "")
C
# configure DIR [LAUNCHER]: a Release build of the project in DIR.
configure() {
  local dir=$1; shift
  cmake -S p -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE=$PWD/debian-hip.cmake "$@" > "$dir.cfg.log" 2>&1
}
build() { make -C "$1" -j2 > "$1.build.log" 2>&1; }
# The build tree's files, sidecars aside (names, not contents: CMake writes its own paths into some).
tree_of() { (cd "$1" && find . -type f ! -name '*.regscope.json' | sed 's/^\.\///' | sort); }
objects_of() { (cd "$1" && find . -name '*.o' | sort); }
# figures FILE.json: each kernel's figures as collect and analyze must agree on them, one line each, sorted.
figures() {
  python3 - "$1" <<'P'
import json, sys, os
d = json.load(open(sys.argv[1]))
rows = []
for k in d["kernels"]:
    o = k["occupancy"]
    rows.append("|".join(str(x) for x in (os.path.basename(k["file"]), k["line"], k["name"], k["arch"], k["vgprs"],
        k["agprs"], k["sgprs"], k["vgprs_total"], k["scratch_bytes"], k["vgpr_spills"], k["sgpr_spills"], k["lds_bytes"],
        k["wave_size"], k["max_workgroup_size"], o["waves_per_simd"], o["max_waves_per_simd"], o["limiter"],
        o["workgroup_size"], o["workgroup_size_source"], o["compiler_reported"], k["agpr_copies"],
        k["mfma_instructions"], k["hidden_agpr_spills"])))
print("\n".join(sorted(rows)))
P
}

configure plain && build plain
configure wrapped "-DCMAKE_HIP_COMPILER_LAUNCHER=$R;wrap;--" && build wrapped
if ! [ -f plain/compile_commands.json ] || ! grep -q 'Built target kernels' plain.build.log; then
  fail wrap-ctl "the plain build failed: $(tail -3 plain.build.log plain.cfg.log | tr '\n' ' ')"
elif ! grep -q 'Built target kernels' wrapped.build.log; then
  fail wrap-a "the build with the launcher failed: $(tail -3 wrapped.build.log | tr '\n' ' ')"
else
  pass wrap-a "the CMake build with CMAKE_HIP_COMPILER_LAUNCHER=regscope;wrap;-- succeeds"
  n=$(cd wrapped && find . -name '*.regscope.json' | wc -l)
  hip_objects=$(cd wrapped && find . -name '*.hip.o' | wc -l)
  if [ "$n" = 3 ] && [ "$hip_objects" = 3 ] && [ -f wrapped/CMakeFiles/kernels.dir/src/sub/scale.hip.o.regscope.json ] &&
     [ ! -e wrapped/CMakeFiles/kernels.dir/src/host.cpp.o.regscope.json ]; then
    pass wrap-b "one sidecar next to each HIP object (3), none for the host object"
  else fail wrap-b "$n sidecars for $hip_objects HIP objects: $(cd wrapped && find . -name '*.regscope.json' | tr '\n' ' ')"; fi
  if [ "$(tree_of plain)" = "$(tree_of wrapped)" ]; then pass wrap-c "no other file in the build tree"
  else fail wrap-c "the build trees differ: $(diff <(tree_of plain) <(tree_of wrapped) | head -5 | tr '\n' ' ')"; fi
  same=1
  for o in $(objects_of plain); do cmp -s "plain/$o" "wrapped/$o" || { same=0; echo "differs: $o"; }; done
  [ "$same" = 1 ] && pass wrap-d "every object is byte-identical with and without the launcher ($(objects_of plain | wc -l))" \
                  || fail wrap-d "objects differ with the launcher"
  if grep -q 'remark' wrapped.build.log; then fail wrap-e "remarks in the build log: $(grep -m1 remark wrapped.build.log)"
  else pass wrap-e "no remark in the build log"; fi

  # collect == analyze -p on the same build's compile database (CMake leaves the launcher out of it)
  (cd wrapped && rs ../col collect . --format json)
  (cd wrapped && rs ../ana analyze -p . --format json --no-cache)
  if [ "$(rc col)" != 0 ] || [ "$(rc ana)" != 0 ]; then fail wrap-f "collect: $(seen col); analyze: $(seen ana)"
  else
    a=$(figures ana.out); c=$(figures col.out)
    if [ "$a" = "$c" ] && [ "$(echo "$a" | wc -l)" -ge 6 ]; then
      pass wrap-f "collect's figures equal analyze -p's ($(echo "$a" | wc -l) kernel x arch rows, two archs)"
    else diff <(echo "$a") <(echo "$c"); fail wrap-f "collect and analyze -p differ (the diff above: < analyze, > collect)"; fi
    src=$(python3 -c "import json;print([k['occupancy']['workgroup_size_source'] for k in json.load(open('col.out'))['kernels'] if k['name'].startswith('_Z12scale')][0])")
    [ "$src" = launch_site ] && pass wrap-g "a launch site's block size reaches collect (scale_kernel: $src)" \
                             || fail wrap-g "scale_kernel's workgroup size source: $src"
    for f in text csv markdown sarif junit html; do (cd wrapped && rs "../fmt-$f" collect . --format "$f"); done
    bad=$(for f in text csv markdown sarif junit html; do [ "$(rc "fmt-$f")" = 0 ] && [ -s "fmt-$f.out" ] || echo "$f"; done)
    [ -z "$bad" ] && pass wrap-h "every --format works for collect" || fail wrap-h "formats failing: $bad"
  fi

  # gate --collect and baseline --collect. The matmul kernel is launched with dim3(block_size, block_size),
  # block_size a constexpr of the included matmul.hpp: read through the header (launch_site), so judged.
  (cd wrapped && rs ../mm collect . --format json)
  mm=$(jget mm.out "sorted({k['occupancy']['workgroup_size_source'] + ':' + str(k['occupancy']['workgroup_size']) for k in d['kernels'] if 'matrix_multiplication' in k['name']})")
  [ "$mm" = "['launch_site:256']" ] && pass wrap-i0 "the launch size from an included header's constexpr reaches collect ($mm)" \
    || fail wrap-i0 "matmul's launch size through its header: $mm ($(seen mm))"
  (cd wrapped && rs ../bl baseline --collect . -o ../base.json && rs ../gt gate --collect . --baseline ../base.json)
  if [ "$(rc bl)" = 0 ] && [ "$(rc gt)" = 0 ] && [ "$(jget base.json 'len(d["kernels"]) if isinstance(d,dict) and "kernels" in d else len(d)')" -ge 1 ]; then
    pass wrap-i "baseline --collect writes a baseline that gate --collect passes"
  else fail wrap-i "baseline: $(seen bl); gate: $(seen gt)"; fi
  (cd wrapped && rs ../gt2 gate --collect . --min-occupancy 8)
  [ "$(rc gt2)" = 1 ] && pass wrap-j "gate --collect fails (exit 1) on a threshold" || fail wrap-j "gate --collect --min-occupancy 8: $(seen gt2)"

  # A stale sidecar (object rebuilt without the launcher) is an error naming it, the others still
  # reported; a gate over it cannot pass (its kernels were not read); a corrupt one is an error.
  cp -a wrapped stale
  touch stale/CMakeFiles/kernels.dir/src/sub/scale.hip.o
  (cd stale && rs ../st collect . --format json)
  if [ "$(rc st)" = 2 ] && grep -q 'scale.hip.o.regscope.json.*rebuilt without the launcher' st.err &&
     ! grep -q scale_kernel st.out && grep -q matmul st.out; then
    pass wrap-k "a stale sidecar is an error naming it (exit 2); the others are still reported"
  else fail wrap-k "stale sidecar: $(seen st)"; fi
  (cd stale && rs ../stg gate --collect . --baseline ../base.json)
  if [ "$(rc stg)" = 2 ] && grep -q 'rebuilt without the launcher' stg.err; then
    pass wrap-k2 "gate --collect over a stale sidecar cannot pass (exit 2)"
  else fail wrap-k2 "gate over a stale sidecar: $(seen stg)"; fi
  echo '{"regscope_sidecar": 1, "source": ' > stale/CMakeFiles/kernels.dir/src/lbm.hip.o.regscope.json
  (cd stale && rs ../cor collect .)
  if [ "$(rc cor)" = 2 ] && grep -q 'lbm.hip.o.regscope.json' cor.err && grep -q 'matmul' cor.out; then
    pass wrap-l "a corrupt sidecar is an error naming it (exit 2); the others are still reported"
  else fail wrap-l "corrupt sidecar: $(seen cor)"; fi
  rm -rf stale
fi
mkdir empty; rs none collect empty
if [ "$(rc none)" = 2 ] && [ "$(wc -l < none.err)" = 1 ] && grep -q 'CMAKE_HIP_COMPILER_LAUNCHER' none.err; then
  pass wrap-m "no sidecars: one line saying how to set the launcher, exit 2"
else fail wrap-m "$(seen none)"; fi

# ---- One compile by hand: messages, failures, an unwritable sidecar, non-device compiles, signals ----
# wrap runs keep the tools' TMPDIR: the compiler inherits it, and clang 15 leaves files there itself.
HIPFLAGS=(--rocm-path=/usr --rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode -x hip --offload-arch=gfx90a -O3)
mkdir -p one && cd one
printf '#include <hip/hip_runtime.h>\n__global__ void warn_kernel(float *p) { int unused = 1; p[threadIdx.x] *= 2.0f; }\n' > w.hip
/usr/bin/clang++-15 "${HIPFLAGS[@]}" -Wall -c w.hip -o plain.o > plain.stdout 2> plain.stderr; plain_rc=$?
"$R" wrap -- /usr/bin/clang++-15 "${HIPFLAGS[@]}" -Wall -c w.hip -o w.o > w.stdout 2> w.stderr; w_rc=$?
if [ "$plain_rc" = 0 ] && [ "$w_rc" = 0 ] && grep -q 'unused' plain.stderr && cmp -s plain.stderr w.stderr && cmp -s plain.stdout w.stdout &&
   [ -f w.o.regscope.json ]; then pass wrap-n "a warning's output passes through byte for byte, without the remarks"
else fail wrap-n "rc $plain_rc/$w_rc; stderr differs: $(diff plain.stderr w.stderr | head -3 | tr '\n' ' ')"; fi
REGSCOPE_SHOW_REMARKS=1 "$R" wrap -- /usr/bin/clang++-15 "${HIPFLAGS[@]}" -c w.hip -o w.o 2> shown.stderr
grep -q 'VGPRs:' shown.stderr && pass wrap-o "REGSCOPE_SHOW_REMARKS=1 prints the remarks" || fail wrap-o "no remarks shown: $(head -2 shown.stderr)"

printf '#include <hip/hip_runtime.h>\n__global__ void broken(float *p) { p[threadIdx.x] = undefined_name; }\n' > bad.hip
/usr/bin/clang++-15 "${HIPFLAGS[@]}" -c bad.hip -o bad.o > badp.stdout 2> badp.stderr; bp=$?
echo stale > bad.o.regscope.json
"$R" wrap -- /usr/bin/clang++-15 "${HIPFLAGS[@]}" -c bad.hip -o bad.o > badw.stdout 2> badw.stderr; bw=$?
if [ "$bp" != 0 ] && [ "$bp" = "$bw" ] && cmp -s badp.stderr badw.stderr && [ ! -e bad.o.regscope.json ]; then
  pass wrap-p "a failing compile keeps its exit status ($bw) and output; the stale sidecar is removed"
else fail wrap-p "plain rc $bp, wrapped rc $bw; $(diff badp.stderr badw.stderr | head -2 | tr '\n' ' ')"; fi

mkdir -p u && mkdir u/w.o.regscope.json   # the sidecar's path cannot be written: it is a directory
"$R" wrap -- /usr/bin/clang++-15 "${HIPFLAGS[@]}" -c w.hip -o u/w.o 2> u.stderr; u_rc=$?
if [ "$u_rc" = 0 ] && [ -s u/w.o ] && [ "$(grep -c 'regscope: warning: wrap:' u.stderr)" = 1 ] && [ "$(ls -A u | wc -l)" = 2 ]; then
  pass wrap-q "an unwritable sidecar: one warning line, the build goes on (exit 0), no temporary file left"
else fail wrap-q "rc $u_rc; $(head -2 u.stderr | tr '\n' ' '); files: $(ls -A u | tr '\n' ' ')"; fi

printf 'int f(int x) { return x * 3; }\n' > h.cpp
g++ -O2 -c h.cpp -o h-plain.o; "$R" wrap -- g++ -O2 -c h.cpp -o h.o; hw=$?
g++ -E h.cpp > e-plain.txt; "$R" wrap -- g++ -E h.cpp > e.txt
"$R" wrap -- /usr/bin/clang++-15 "${HIPFLAGS[@]}" -E w.hip > ehip.txt 2> ehip.err
/usr/bin/clang++-15 "${HIPFLAGS[@]}" -E w.hip > ehip-plain.txt 2> /dev/null
if [ "$hw" = 0 ] && cmp -s h-plain.o h.o && cmp -s e-plain.txt e.txt && cmp -s ehip.txt ehip-plain.txt && [ ! -e h.o.regscope.json ] &&
   ! ls ./*.E*.regscope.json > /dev/null 2>&1; then
  pass wrap-r "non-device compiles (g++ -c, -E, a HIP -E) pass through: byte-identical outputs, no sidecar"
else fail wrap-r "rc $hw; h.o same: $(cmp -s h-plain.o h.o && echo yes || echo no); -E same: $(cmp -s e-plain.txt e.txt && echo yes || echo no)"; fi

mkdir -p fake && printf '#!/bin/sh\nkill -TERM $$\n' > fake/clang++ && chmod +x fake/clang++
(./fake/clang++ -x hip -c w.hip -o f.o); plain_sig=$?
("$R" wrap -- ./fake/clang++ -x hip -c w.hip -o f.o); wrap_sig=$?
[ "$plain_sig" = 143 ] && [ "$wrap_sig" = 143 ] && pass wrap-s "a compiler killed by SIGTERM: wrap dies by it too (143)" \
  || fail wrap-s "compiler alone: $plain_sig, wrapped: $wrap_sig"
cd ..

# ---- ccache as the next launcher: a clean rebuild from ccache's hits gives the same sidecars ----
if ! have ccache; then
  skip wrap-t "ccache is not installed (scripts/install-test-tools.sh installs it)"
else
  export CCACHE_DIR=$S/.ccache CCACHE_TEMPDIR=$S/.tmp-tools/ccache
  ccache -C > /dev/null 2>&1; ccache -z > /dev/null 2>&1
  configure cc "-DCMAKE_HIP_COMPILER_LAUNCHER=$R;wrap;--;ccache" && build cc
  sidecars() { (cd cc && for f in $(find . -name '*.regscope.json' | sort); do
      echo "$f"; python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['object'].pop('mtime_ns'); print(json.dumps(d, sort_keys=True))" "$f"; done); }
  first=$(sidecars)
  make -C cc clean > /dev/null 2>&1; build cc
  hits=$(ccache -s -v 2>/dev/null | awk -F: '/^ *Hits/ {gsub(/ /,"",$2); split($2,a,"/"); print a[1]; exit}')
  second=$(sidecars)
  if ! grep -q 'Built target kernels' cc.build.log; then fail wrap-t "the ccache build failed: $(tail -3 cc.build.log | tr '\n' ' ')"
  elif [ "${hits:-0}" -lt 3 ]; then fail wrap-t "the rebuild did not hit ccache (hits: ${hits:-none}): $(ccache -s 2>&1 | head -5 | tr '\n' ' ')"
  elif [ -n "$first" ] && [ "$first" = "$second" ]; then
    (cd cc && rs ../ccol collect . --format json)
    if [ "$(figures ccol.out)" = "$(figures ana.out)" ]; then
      pass wrap-t "with ccache as the next launcher, a rebuild from $hits ccache hits gives identical sidecars and analyze's figures"
    else fail wrap-t "ccache build: collect differs from analyze: $(diff <(figures ana.out) <(figures ccol.out) | head -3 | tr '\n' ' ')"; fi
  else fail wrap-t "sidecars differ after the ccache rebuild: $(diff <(echo "$first") <(echo "$second") | head -3 | tr '\n' ' ')"; fi
fi
