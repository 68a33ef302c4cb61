#!/bin/bash
# --block-size beyond the kernel's __launch_bounds__ cannot launch (say so); the assumed
# block size is stated with how to give the real one; per-kernel block_size/dynamic_lds in .regscope.json;
# constant block sizes read from the host code's launch sites. Kernels shaped like the rocprof-compute
# training exercises (y^T A x) and rocm-examples' saxpy, written here.
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
yax_src bounds > yax.hip      # __launch_bounds__(256)
rs a analyze yax.hip --block-size 1024 --offload-arch gfx908 --format json -o a.json
rs at analyze yax.hip --block-size 1024 --offload-arch gfx908
if [ "$(rc a)" = 2 ] && grep -q '256' a.err; then pass blocksize-01 "--block-size 1024 over __launch_bounds__(256): error naming the bound"
elif [ "$(rc at)" = 0 ] && grep -qiE "cannot launch|can't launch|exceeds|larger than|above" at.out at.err && grep -q 256 at.out at.err \
     && ! grep -qi "1024 threads (the kernel's max flat" at.out; then pass blocksize-01 "--block-size 1024 over __launch_bounds__(256): a clear note"
else fail blocksize-01 "--block-size 1024 over __launch_bounds__(256): exit $(rc at), $(grep -i 'workgroup\|1024' at.out at.err | head -2 | cut -c1-150 | tr '\n' '|')"; fi
# gfx908 without launch bounds, block size computed at run time: which size was assumed and how to give the real one
yax_src runtime > lp.hip
rs b analyze lp.hip --offload-arch gfx908
if [ "$(rc b)" = 0 ] && grep -q 1024 b.out b.err && grep -qE -- '--block-size|block_size' b.out b.err; then pass blocksize-02 "gfx908, no launch bounds, runtime block size: says 1024 was assumed and how to give the real size"
else fail blocksize-02 "gfx908, no launch bounds: exit $(rc b), notes: $(grep -iE 'assum|workgroup' b.out | head -2 | cut -c1-140 | tr '\n' '|')"; fi
# per-kernel block_size and dynamic_lds in .regscope.json
printf '{"version": 1, "kernels": [{"match": "yax*", "block_size": 128, "dynamic_lds": 4096}]}\n' > .regscope.json
rs c analyze lp.hip --offload-arch gfx908 --format json
ws=$(jget c.out "[k['occupancy']['workgroup_size'] for k in d['kernels']]" 2>/dev/null)
if [ "$(rc c)" = 0 ] && [ "$ws" = "[128]" ]; then pass blocksize-03 ".regscope.json per-kernel block_size 128 is used"
else fail blocksize-03 ".regscope.json {match: yax*, block_size: 128, dynamic_lds: 4096}: exit $(rc c), workgroup sizes $ws $(first_err c)"; fi
rm .regscope.json
# launch sites with constant block sizes in the same translation unit
cat > saxpy.hip <<'K'
#include <hip/hip_runtime.h>
__global__ void saxpy_kernel(const float a, const float *d_x, float *d_y, const unsigned int size) {
  const unsigned int global_idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (global_idx < size) d_y[global_idx] = a * d_x[global_idx] + d_y[global_idx];
}
constexpr unsigned int ceiling_div(unsigned int a, unsigned int b) { return (a + b - 1) / b; }
void run(float a, const float *d_x, float *d_y) {
  constexpr unsigned int size = 1000000;
  constexpr unsigned int block_size = 256;
  constexpr unsigned int grid_size = ceiling_div(size, block_size);
  saxpy_kernel<<<dim3(grid_size), dim3(block_size), 0, hipStreamDefault>>>(a, d_x, d_y, size);
}
K
rs d analyze saxpy.hip --offload-arch gfx908 --format json -- -std=c++17
ws=$(jget d.out "[k['occupancy']['workgroup_size'] for k in d['kernels']]" 2>/dev/null)
[ "$(rc d)" = 0 ] && [ "$ws" = "[256]" ] && pass blocksize-04 "saxpy: block size 256 read from <<<..., dim3(block_size)>>>" \
  || fail blocksize-04 "saxpy (constexpr block_size = 256 at the launch): workgroup sizes $ws (exit $(rc d))"
yax_src lds > lds.hip
rs e analyze lds.hip --offload-arch gfx90a --format json   # dim3 block = dim3(64,1,1); yax<<<grid,block>>>
ws=$(jget e.out "[k['occupancy']['workgroup_size'] for k in d['kernels']]" 2>/dev/null)
[ "$(rc e)" = 0 ] && [ "$ws" = "[64]" ] && pass blocksize-05 "LDS exercise: block size 64 read from dim3 block = dim3(64,1,1)" \
  || fail blocksize-05 "LDS exercise (dim3 block = dim3(64,1,1); yax<<<grid,block>>>): workgroup sizes $ws (exit $(rc e))"
cat > launch.hip <<'K'
#include <hip/hip_runtime.h>
__global__ void scale(float *x, float a) { x[blockIdx.x * blockDim.x + threadIdx.x] *= a; }
void run(float *x, int n) { hipLaunchKernelGGL(scale, dim3(n / 128), dim3(128), 0, 0, x, 2.0f); }
K
rs f analyze launch.hip --offload-arch gfx908 --format json
ws=$(jget f.out "[k['occupancy']['workgroup_size'] for k in d['kernels']]" 2>/dev/null)
[ "$(rc f)" = 0 ] && [ "$ws" = "[128]" ] && pass blocksize-06 "hipLaunchKernelGGL(scale, ..., dim3(128), ...): block size 128" \
  || fail blocksize-06 "hipLaunchKernelGGL with dim3(128): workgroup sizes $ws (exit $(rc f))"
