#!/bin/bash
# The occupancy calculator must accept every SGPR count a compiler prints (LLVM 19
# prints up to 106 on gfx908/gfx90a, LLVM 15 up to 108 on gfx940) and give the occupancy the compiler
# gives. The kernels pin their SGPRs with an inline-asm clobber; the compiler's own remark is the oracle.
. "$(dirname "$0")/lib.sh"; need "$LLVM19" hipcc; scratch
check() { # ID COMPILER ARCH CLOBBER
  local id=$1 cc=$2 arch=$3 reg=$4
  printf '__attribute__((global)) void k(int *p) { asm volatile("" ::: "%s"); p[0] = 1; }\n' "$reg" > k.hip
  "$cc" -x hip -nogpuinc -nogpulib --cuda-device-only -O3 --offload-arch=$arch -S -o k.s \
     -Rpass-analysis=kernel-resource-usage k.hip 2> rem.log
  local s=$(sed -n 's/.*remark: *SGPRs: \([0-9]*\).*/\1/p' rem.log) v=$(sed -n 's/.*remark: *VGPRs: \([0-9]*\).*/\1/p' rem.log)
  local o=$(sed -n 's/.*Occupancy \[waves\/SIMD\]: \([0-9]*\).*/\1/p' rem.log)
  [ -n "$s" ] && [ -n "$o" ] || { fail "$id" "no remarks from $cc for $arch"; return; }
  local gen=llvm19; case "$cc" in *hipcc*) gen=llvm15;; esac
  rs r occupancy --arch $arch --vgprs $v --sgprs $s --as-compiler $gen --format json
  local got=$(jget r.out "d['occupancy']['waves_per_simd']" 2>/dev/null)
  if [ "$(rc r)" = 0 ] && [ "$got" = "$o" ]; then pass "$id" "$arch --sgprs $s ($(basename $cc) prints it): $got waves/SIMD as the compiler"
  else fail "$id" "occupancy --arch $arch --vgprs $v --sgprs $s --as-compiler $gen: exit $(rc r), $got waves (compiler: $o) $(first_err r)"; fi
}
check sgpr-01 "$LLVM19" gfx908 s100
check sgpr-02 "$LLVM19" gfx908 s101
check sgpr-03 "$LLVM19" gfx90a s101
check sgpr-04 /usr/bin/hipcc gfx940 s101
check sgpr-05 "$LLVM19" gfx940 s101
# the full analysis of such a kernel (clang 19, gfx908) must not be refused either
printf '#include <hip/hip_runtime.h>\n__global__ void k(int *p) { asm volatile("" ::: "s101"); p[0] = 1; }\n' > k2.hip
rs a analyze k2.hip --compiler "$LLVM19" --offload-arch gfx908 -- -O3
if [ "$(rc a)" = 0 ]; then pass sgpr-06 "analyze of a 106-SGPR kernel (clang 19, gfx908)"; else fail sgpr-06 "analyze of a kernel clobbering s101 on gfx908 with clang 19: $(seen a)"; fi
