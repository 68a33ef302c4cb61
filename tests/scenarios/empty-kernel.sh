#!/bin/bash
# An empty kernel gets one vgprs_total whichever input it is read from
# (.s, device code object, host object with the fat binary, analyze).
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
printf '#include <hip/hip_runtime.h>\n__global__ void empty_kernel() {}\n__global__ void one(int *p) { p[threadIdx.x] = 1; }\n' > e.hip
mkdir b && ( cd b && hipcc --offload-arch=gfx90a --save-temps -c ../e.hip -o e.o 2>/dev/null )
v() { jget "$1" "sorted((k['name'], k['vgprs'], k['vgprs_total']) for k in d['kernels'])" 2>/dev/null; }
rs s parse b/e-hip-amdgcn-amd-amdhsa-gfx90a.s --format json
rs c parse b/e-hip-amdgcn-amd-amdhsa-gfx90a.out --format json
rs h parse b/e.o --format json
rs a analyze e.hip --format json
S_=$(v s.out); C_=$(v c.out); H_=$(v h.out); A_=$(v a.out)
if [ -z "$S_" ] || [ -z "$C_" ]; then fail empty-ctl "parse failed: $(seen s) / $(seen c)"
elif [ "$S_" = "$C_" ] && [ "$C_" = "$H_" ] && [ "$H_" = "$A_" ]; then pass empty-01 "empty kernel: same vgprs_total from .s, code object, host object and analyze"
else fail empty-01 "(name, vgprs, vgprs_total): .s $S_ | code object $C_ | host .o $H_ | analyze $A_"; fi
