#!/bin/bash
# The conventions of real projects, rebuilt here as small sources written by
# this script (no third-party code): HeCBench's hipified benchmarks (bench-hip/main.cu beside
# bench-cuda/ with the shared headers, a Makefile's hipcc flags), ggml's HIP backend (ggml-cuda/*.cu and
# .cuh compiled as HIP through a compile database, template kernels instantiated many times), a project
# that force-includes a header reachable only through -I (amd-lab-notes' Makefiles).
. "$(dirname "$0")/lib.sh"; need hipcc python3; scratch

# ---- HeCBench's layout: ace-hip/main.cu (hipified, still .cu) includes "reference.h" from ../ace-cuda.
mkdir -p ace-hip ace-cuda
cat > ace-cuda/reference.h <<'H'
// Shared by the CUDA and HIP versions of the benchmark (written for regscope's scenario tests).
#pragma once
#define BLOCK_SIZE 256
H
cat > ace-hip/main.cu <<'K'
#include <hip/hip_runtime.h>
#include "reference.h"
__global__ void ace_step(float *phi, const float *u, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) phi[i] = phi[i] * 0.5f + u[i] * u[i];
}
int main() {
  float *phi, *u;
  hipMalloc(&phi, 1024 * sizeof(float)); hipMalloc(&u, 1024 * sizeof(float));
  hipLaunchKernelGGL(ace_step, dim3(4), dim3(BLOCK_SIZE), 0, 0, phi, u, 1024);
  return 0;
}
K
HEC_FLAGS=(-std=c++17 -Wall -I../ace-cuda -O3)   # the benchmark's Makefile CFLAGS
cd ace-hip
ok1() { local id=$1 what=$2; shift 2; rs r "$@"
  if [ "$(rc r)" = 0 ] && grep -q ace_step r.out; then pass "$id" "$what"; else fail "$id" "$what: $(seen r)"; fi; }
ok1 layout-01a 'main.cu --offload-arch gfx90a -- -x hip (a user'"'"'s command)' analyze main.cu --offload-arch gfx90a -- -x hip "${HEC_FLAGS[@]}"
ok1 layout-01b 'main.cu -- -x hip'                         analyze main.cu -- -x hip "${HEC_FLAGS[@]}"
ok1 layout-01c 'main.cu -- --offload-arch=gfx90a'          analyze main.cu -- --offload-arch=gfx90a "${HEC_FLAGS[@]}"
ok1 layout-01d 'main.cu -- --cuda-gpu-arch=gfx90a'         analyze main.cu -- --cuda-gpu-arch=gfx90a "${HEC_FLAGS[@]}"
ok1 layout-01e 'main.cu -- -D__HIP_PLATFORM_AMD__'         analyze main.cu -- -D__HIP_PLATFORM_AMD__ "${HEC_FLAGS[@]}"
ok1 layout-01f 'main.cu --offload-arch gfx90a (an AMD target asked for)' analyze main.cu --offload-arch gfx90a -- "${HEC_FLAGS[@]}"
rs r analyze main.cu -- "${HEC_FLAGS[@]}"
if clean_error r && grep -q 'CUDA source' r.err && grep -q -- '-x hip' r.err; then pass layout-01g 'nothing says HIP: a CUDA source, with how to say HIP'
else fail layout-01g "$(seen r)"; fi
cd ..
# The Makefile's compile, as bear or a script records it: hipcc on a .cu is a HIP entry.
python3 - "$PWD" <<'P'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d + "/ace-hip", "file": "main.cu",
            "arguments": ["hipcc", "-std=c++17", "-Wall", "-I../ace-cuda", "-O3", "-c", "main.cu", "-o", "main.o"]},
           {"directory": d + "/ace-cuda", "file": "main.cu",
            "arguments": ["nvcc", "-std=c++17", "-arch=sm_80", "-c", "main.cu", "-o", "main.o"]}],
          open("hec.json", "w"))
P
printf '#include "reference.h"\n__global__ void ace_step_cuda(float *p) { p[threadIdx.x] = 1.0f; }\n' > ace-cuda/main.cu
rs r analyze -p hec.json --format json -o hec.out.json
if [ "$(rc r)" = 0 ] && [ "$(jget hec.out.json "sorted({k['demangled'].split('(')[0] for k in d['kernels']})")" = "['ace_step']" ]
then pass layout-01h 'compile database: hipcc on main.cu is HIP; nvcc on the CUDA twin is not taken'
else fail layout-01h "$(seen r) kernels: $(jget hec.out.json "[k['demangled'] for k in d['kernels']]" 2>/dev/null)"; fi

# ---- -include FILE, a header reachable only through -I (layout-02).
mkdir -p inc/include inc/src inc/build
printf '#pragma once\n#define FORCED_FROM_INCLUDE_DIR 1\n' > inc/include/common.h
printf '#include <hip/hip_runtime.h>\n#ifndef FORCED_FROM_INCLUDE_DIR\n#error common.h not force-included\n#endif\n__global__ void forced(float *p) { p[threadIdx.x] += 1.0f; }\n' > inc/src/k.hip
cd inc/build
ok2() { local id=$1 what=$2; shift 2; rs r "$@"
  if [ "$(rc r)" = 0 ] && grep -q forced r.out; then pass "$id" "$what"; else fail "$id" "$what: $(seen r)"; fi; }
ok2 layout-02a '-include common.h -I ../include'   analyze ../src/k.hip -- -include common.h -I ../include
ok2 layout-02b '-includecommon.h -I../include'     analyze ../src/k.hip -- -includecommon.h -I../include
ok2 layout-02c '--include=common.h -iquote ../include' analyze ../src/k.hip -- --include=common.h -iquote ../include
printf -- '-include common.h\n-I ../include\n' > flags.rsp
ok2 layout-02d '@flags.rsp holding -include common.h -I ../include' analyze ../src/k.hip -- @flags.rsp
python3 -c "
import json, os
b = os.getcwd()
json.dump([{'directory': b, 'file': '../src/k.hip', 'command': 'hipcc -include common.h -I../include -c ../src/k.hip -o k.o'}],
          open('compile_commands.json', 'w'))"
ok2 layout-02e 'compile database: -include common.h -I../include' analyze -p .
# clang's order: the working directory first. A common.h here that does not define the macro wins.
printf '#pragma once\n' > common.h
rs r analyze ../src/k.hip -- -include common.h -I ../include
if [ "$(rc r)" = 2 ] && grep -q 'common.h not force-included' r.err; then pass layout-02f 'a common.h in the working directory comes first, as with clang'
else fail layout-02f "$(seen r)"; fi
rm common.h
cd ../..

# ---- One bad file never hides the rest (layout-03): ggml's layout, two good files and two that fail.
mkdir -p ggml/ggml-cuda
for n in norm scale; do
  printf '#include <hip/hip_runtime.h>\n__global__ void %s_f32(float *p) { p[threadIdx.x] *= 2.0f; }\n' $n > ggml/ggml-cuda/$n.cu
done
printf '#include <hip/hip_runtime.h>\n#include "missing-vendor.h"\n__global__ void k(float *p) {}\n' > ggml/ggml-cuda/fattn.cu
printf '#include <hip/hip_runtime.h>\n__global__ void bad_f32(float *p) { p[0] = not_declared; }\n' > ggml/ggml-cuda/getrows.cu
CLANG15=$(command -v clang++-15 || command -v hipcc)   # ggml's CMake names ROCm's clang++
python3 - "$PWD/ggml" "$CLANG15" <<'P'
import json, sys
d, cc = sys.argv[1], sys.argv[2]
json.dump([{"directory": d + "/build", "file": d + "/ggml-cuda/" + n + ".cu",
            "arguments": [cc, "-DGGML_USE_HIP", "-D__HIP_PLATFORM_AMD__=1", "-O3", "--offload-arch=gfx90a",
                          "-x", "hip", "-c", d + "/ggml-cuda/" + n + ".cu", "-o", n + ".o"]}
           for n in ["norm", "fattn", "scale", "getrows"]], open(d + "/compile_commands.json", "w"))
P
mkdir -p ggml/build
rs r analyze -p ggml/compile_commands.json --format json -o g.json
nf=$(grep -c 'fattn.cu' r.err); ng=$(grep -c 'getrows.cu' r.err)
if [ "$(rc r)" = 2 ] && [ "$(jget g.json "len(d['kernels'])")" = 2 ] && grep -q '2 of 4 files failed' r.err &&
   [ "$nf" -ge 1 ] && [ "$ng" -ge 1 ] && grep -q "missing-vendor.h' file not found" r.err && grep -q not_declared r.err
then pass layout-03a 'two failing files: each named with its first error, the other two analysed, "2 of 4 files failed", exit 2'
else fail layout-03a "$(seen r) kernels=$(jget g.json "len(d['kernels'])" 2>/dev/null) fattn=$nf getrows=$ng"; fi
# A compiler output regscope cannot read is that file's error, named: a compiler (hipcc, then a remark
# record whose function name is empty, as ggml's run met: LLVM's remark parser refuses it) on one file.
cat > fakecc <<'W'
#!/bin/bash
hipcc "$@"; rc=$?
case "$*" in *scale.cu*) for y in *.opt.yaml; do printf -- "--- !Analysis\nPass:            kernel-resource-usage\nName:            FunctionName\nFunction:        ''\nArgs:\n  - String:          'Function Name: '\n  - FunctionName:    ''\n...\n" >> "$y"; done ;; esac
exit $rc
W
chmod +x fakecc
rm ggml/ggml-cuda/fattn.cu ggml/ggml-cuda/getrows.cu
rs r analyze ggml/ggml-cuda/norm.cu ggml/ggml-cuda/scale.cu --compiler "$PWD/fakecc" --no-cache -- -x hip
if [ "$(rc r)" = 2 ] && grep -q 'norm_f32' r.out && grep -q '^regscope: error: ggml/ggml-cuda/scale.cu: optimisation record' r.err &&
   grep -q '1 of 2 files failed' r.err
then pass layout-03b 'an unreadable remark record fails its own file, named; the other file is analysed'
else fail layout-03b "$(seen r) out: $(head -3 r.out | tr '\n' '|')"; fi
# The same error for every file (here: a header each includes is missing) is said once, with a count.
for n in a b c; do printf '#include <hip/hip_runtime.h>\n#include "hipblas/hipblas.h"\n__global__ void %s(float *p) {}\n' $n > ggml/$n.cu; done
rs r analyze ggml/a.cu ggml/b.cu ggml/c.cu -- -x hip
if [ "$(rc r)" = 2 ] && [ "$(grep -c "hipblas/hipblas.h' file not found" r.err)" = 1 ] &&
   grep -q 'failed on all 3 files (exit 1): ggml/a.cu, ggml/b.cu, ggml/c.cu; first error:' r.err &&
   ! grep -q 'each file\|files failed' r.err
then pass layout-03c 'the same error in three files: said once, with the count and the files'
else fail layout-03c "$(seen r) $(grep -c hipblas r.err) lines naming hipblas"; fi

# ---- Kernels defined in headers, .cuh and .inl (layout-04): their real file and line.
mkdir -p hdr
printf '#pragma once\n#include <hip/hip_runtime.h>\n\n// a kernel in a header\ntemplate <typename T>\n__global__ void from_cuh(T *p) {\n  p[threadIdx.x] += T(1);\n}\n' > hdr/kernels.cuh
printf '// included inline\n\n__global__ void from_inl(float *p) {\n  p[threadIdx.x] *= 3.0f;\n}\n' > hdr/more.inl
printf '#include "kernels.cuh"\n#include "more.inl"\ntemplate __global__ void from_cuh<float>(float *);\n__global__ void in_main(float *p) { p[0] = 1.0f; }\n' > hdr/main.cu
rs r analyze hdr/main.cu --format json -o h.json -- -x hip
want_cuh="hdr/kernels.cuh:$(grep -n '__global__ void from_cuh' hdr/kernels.cuh | cut -d: -f1)"
want_inl="hdr/more.inl:$(grep -n '__global__ void from_inl' hdr/more.inl | cut -d: -f1)"
got_cuh=$(jget h.json "[k['file'] + ':' + str(k['line']) for k in d['kernels'] if 'from_cuh' in k['demangled']][0]" 2>/dev/null)
got_inl=$(jget h.json "[k['file'] + ':' + str(k['line']) for k in d['kernels'] if 'from_inl' in k['demangled']][0]" 2>/dev/null)
if [ "$(rc r)" = 0 ] && [ "$got_cuh" = "$want_cuh" ] && [ "$got_inl" = "$want_inl" ]
then pass layout-04a "kernels in a .cuh and an .inl: $got_cuh, $got_inl"
else fail layout-04a "$(seen r) got $got_cuh $got_inl, want $want_cuh $want_inl"; fi

# The same with nvcc (ptxas names no line: the headers the compile read are searched).
if have "$NVCC"; then
  mkdir -p cuh
  printf '#pragma once\n\n// a kernel in a header\ntemplate <typename T>\n__global__ void from_cuh(T *p) {\n  p[threadIdx.x] += T(1);\n}\n' > cuh/kernels.cuh
  printf '#include "kernels.cuh"\ntemplate __global__ void from_cuh<float>(float *);\n__global__ void in_main(float *p) { p[0] = 1.0f; }\n' > cuh/main.cu
  for cache in "" --no-cache; do
    rs r analyze cuh/main.cu --cuda-arch sm_80 $cache --format json -o c.json
    want="cuh/kernels.cuh:$(grep -n '__global__ void from_cuh' cuh/kernels.cuh | cut -d: -f1)"
    got=$(jget c.json "[k['file'] + ':' + str(k['line']) for k in d['kernels'] if 'from_cuh' in k['demangled']][0]" 2>/dev/null)
    if [ "$(rc r)" = 0 ] && [ "$got" = "$want" ]; then pass "layout-04b${cache:+-nocache}" "CUDA kernel in a .cuh ($cache): $got"
    else fail "layout-04b${cache:+-nocache}" "$(seen r) got $got, want $want"; fi
  done
else skip layout-04b "nvcc is not installed"; fi

# ---- Dynamic LDS at the launch site (layout-05), as HeCBench's host code writes it.
mkdir -p lds
cat > lds/main.cu <<'K'
#include <hip/hip_runtime.h>
#define BS 256
constexpr int kTile = 32;
__global__ void reduce(float *out, const float *in) {
  extern __shared__ float s[];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[blockDim.x - 1];
}
__global__ void tile(float *out, const float *in) {
  extern __shared__ float t[];
  t[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = t[(threadIdx.x + 1) % blockDim.x];
}
__global__ void attr(float *out, const float *in) {
  extern __shared__ float a[];
  a[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = a[blockDim.x - 1 - threadIdx.x];
}
int main(int argc, char **) {
  float *o, *i;
  reduce<<<1024, BS, 16 * 1024 * sizeof(float)>>>(o, i);
  hipLaunchKernelGGL(tile, dim3(64), dim3(BS), 2 * kTile * kTile * sizeof(float), 0, o, i);
  hipFuncSetAttribute((const void *)attr, hipFuncAttributeMaxDynamicSharedMemorySize, 49152);
  attr<<<64, BS, argc * 1024>>>(o, i);
  return 0;
}
K
rs r analyze lds/main.cu --format json -o l.json -- -x hip
rs t analyze lds/main.cu -- -x hip
lds_of() { jget l.json "[(k['occupancy']['dynamic_lds_bytes'], k['occupancy']['dynamic_lds_source'], k['occupancy']['waves_per_simd']) for k in d['kernels'] if k['demangled'].startswith('$1(')][0]"; }
rs f analyze lds/main.cu --dynamic-lds 65536 --format json -o f.json -- -x hip
flag_waves=$(jget f.json "[k['occupancy']['waves_per_simd'] for k in d['kernels'] if k['demangled'].startswith('reduce(')][0]" 2>/dev/null)
if [ "$(rc r)" = 0 ] && [ "$(lds_of reduce)" = "(65536, 'launch_site', $flag_waves)" ] &&
   [ "$(lds_of tile | cut -d, -f1-2)" = "(8192, 'launch_site'" ] && [ "$(lds_of attr | cut -d, -f1-2)" = "(49152, 'func_attribute'" ]
then pass layout-05a "dynamic LDS read at <<<>>>, hipLaunchKernelGGL and hipFuncSetAttribute, counted as --dynamic-lds counts it"
else fail layout-05a "$(seen r) reduce=$(lds_of reduce) tile=$(lds_of tile) attr=$(lds_of attr) flag=$flag_waves"; fi
if unwrap t.out | grep -q 'dynamic LDS, the size its launches in the file give' && unwrap t.out | grep -q 'MaxDynamicSharedMemorySize'
then pass layout-05b 'the table says where each dynamic LDS figure came from'
else fail layout-05b "$(grep -i dynamic t.out | head -3 | tr '\n' '|')"; fi
rs g analyze lds/main.cu --dynamic-lds 1024 --format json -o g0.json -- -x hip
if [ "$(jget g0.json "[(k['occupancy']['dynamic_lds_bytes'], k['occupancy']['dynamic_lds_source']) for k in d['kernels'] if k['demangled'].startswith('reduce(')][0]")" = "(1024, 'flag')" ]
then pass layout-05c '--dynamic-lds on the command line still wins over the launch site'
else fail layout-05c "$(seen g)"; fi

# ---- Template instantiations stay distinct when the table shortens names (layout-06): ggml's mmvq.
mkdir -p mmvq
cat > mmvq/mmvq.cu <<'K'
#include <hip/hip_runtime.h>
enum ggml_type { GGML_TYPE_F32 = 0, GGML_TYPE_Q4_0 = 2, GGML_TYPE_Q4_1 = 3, GGML_TYPE_Q8_0 = 8 };
template <ggml_type type, int ncols_dst, bool has_fusion, bool is_multi_token_id>
__global__ void mul_mat_vec_q(const void *vx, const void *vy, const int *ids, float *dst, unsigned int ncols_x,
                              unsigned int nchannels_y, unsigned int stride_row_x, unsigned int stride_col_y) {
  float acc = 0.0f;
  for (unsigned int i = threadIdx.x; i < ncols_x; i += blockDim.x) acc += ((const float *)vx)[i] * ncols_dst * (int)type;
  if (has_fusion) acc *= 2.0f;
  if (is_multi_token_id && ids) acc += ids[0];
  dst[blockIdx.x] = acc;
}
template __global__ void mul_mat_vec_q<GGML_TYPE_Q4_0, 1, true, false>(const void *, const void *, const int *, float *, unsigned int, unsigned int, unsigned int, unsigned int);
template __global__ void mul_mat_vec_q<GGML_TYPE_Q4_0, 1, false, false>(const void *, const void *, const int *, float *, unsigned int, unsigned int, unsigned int, unsigned int);
template __global__ void mul_mat_vec_q<GGML_TYPE_Q4_1, 1, true, false>(const void *, const void *, const int *, float *, unsigned int, unsigned int, unsigned int, unsigned int);
template __global__ void mul_mat_vec_q<GGML_TYPE_Q8_0, 2, true, false>(const void *, const void *, const int *, float *, unsigned int, unsigned int, unsigned int, unsigned int);
template __global__ void mul_mat_vec_q<GGML_TYPE_Q8_0, 2, true, true>(const void *, const void *, const int *, float *, unsigned int, unsigned int, unsigned int, unsigned int);
K
for w in 40 48 60; do
  rs m analyze mmvq/mmvq.cu --name-width $w -- -x hip
  rows=$(grep -c '^mul_mat_vec_q<' m.out)
  if [ "$(rc m)" = 0 ] && [ "$rows" = 5 ] && ! grep -q '<(\.\.\.)' m.out &&
     [ "$(grep '^mul_mat_vec_q<' m.out | awk '{print $1, $2, $3, $4, $5}' | sort -u | wc -l)" = 5 ]
  then pass layout-06-$w "five instantiations, five distinct names in $w columns"
  else fail layout-06-$w "$(seen m) rows=$rows: $(grep 'mul_mat_vec_q' m.out | cut -c1-60 | tr '\n' '|')"; fi
done
rs m analyze mmvq/mmvq.cu --format csv -o m.csv -- -x hip
if grep -q 'mul_mat_vec_q<(ggml_type)2, 1, true, false>(void const\*' m.csv; then pass layout-06-csv 'CSV keeps the full names'
else fail layout-06-csv "$(grep -m1 mul_mat m.csv | cut -c1-100)"; fi

# ---- explain from a directory outside a git repository (layout-07): the scratch is under $TMPDIR, as
# regscope's own compile directory is, so clang's line table names the source twice (.file 0 and 1);
# code inlined from another line of the file must count on the caller's line, not as a second file.
mkdir -p ex && lbm_src > ex/lbm.hip
( cd ex && rs e explain lbm.hip )
rows=$(awk '/LINE  VGPR/{on=1; next} on && /^$/{exit} on' ex/e.out)
other=$(printf '%s\n' "$rows" | grep -c 'lbm\.hip:' || true)
if [ "$(rc ex/e)" = 0 ] && [ -n "$rows" ] && [ "$other" = 0 ]
then pass layout-07 "explain's line table has no second lbm.hip:LINE rows ($(printf '%s\n' "$rows" | wc -l) rows)"
else fail layout-07 "$(seen ex/e) $other rows name lbm.hip as another file: $(printf '%s\n' "$rows" | grep 'lbm\.hip:' | head -2 | tr '\n' '|')"; fi

# ---- The same dynamic LDS through regscope wrap and collect (a build's own compile, layout-05d; the build's
# hipcc leaves its own temporaries in the build's TMPDIR, as with any build).
mkdir -p wrapped && cp lds/main.cu wrapped/main.hip
( cd wrapped && "$R" wrap -- hipcc --offload-arch=gfx90a -O3 -c main.hip -o main.o > ../w.out 2> ../w.err )
( cd wrapped && rs ../col collect . --format json )
got=$(python3 -c "import json; d=json.load(open('col.out')); print(sorted((k['demangled'].split('(')[0], k['occupancy']['dynamic_lds_bytes'], k['occupancy']['dynamic_lds_source']) for k in d['kernels']))" 2>/dev/null)
if [ "$(rc col)" = 0 ] && [ "$got" = "[('attr', 49152, 'func_attribute'), ('reduce', 65536, 'launch_site'), ('tile', 8192, 'launch_site')]" ]
then pass layout-05d "wrap + collect read the same launch sites: $got"
else fail layout-05d "$(seen col) $(head -2 w.err | tr '\n' '|') got $got"; fi
