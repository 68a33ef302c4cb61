# NVIDIA binaries that exist, read without a compiler or a GPU (docs/cubin.md): parse of a cubin, a
# fatbin, a host object and an executable gives the figures cuobjdump printed for the same file (read
# here from the committed res-usage text); compressed cubins are decompressed and read; explain on
# a cubin joins nvdisasm's listings (a stand-in printing the GPU machine's real output where nvdisasm
# is not installed) and says in one line when nvdisasm is missing; and nvcc under `regscope wrap`, as
# CMake's CUDA launcher, writes sidecars that `collect` reports as analyze --cuda-arch reports them.
. "$(dirname "$0")/lib.sh"; scratch
F=$SRC/fixtures
NVDISASM=$(command -v nvdisasm 2>/dev/null || { [ -x "$(dirname "$NVCC")/nvdisasm" ] && echo "$(dirname "$NVCC")/nvdisasm"; })

# cuobjdump's REG and STACK of FILE's arch ARCH, as "name REG STACK" lines (res-usage text, read here).
res_usage() {
  python3 - "$1" "$2" <<'P'
import sys
arch, want, kernel = None, sys.argv[2], None
for line in open(sys.argv[1]):
    if line.startswith("arch = "): arch = line[7:].strip()
    if line.startswith(" Function "): kernel = line[10:].strip().rstrip(":"); continue
    if kernel and (arch is None or arch == want):
        f = dict(i.rsplit(":", 1) for i in line.split())
        print(kernel, f["REG"], f["STACK"])
    kernel = None
P
}
ours() { jget "$1" "'\n'.join('%s %s %s' % (k['name'], k['registers'], k['stack_bytes']) for k in d['kernels'] if k['arch'].rstrip('a') == '$2')"; }

# nvbin-01: parse of every kind of NVIDIA binary equals cuobjdump's figures for the same file.
for f in cubin/cubin_probe.sm_90.cubin:sm_90 cubin/cubin_probe.sm_80.cubin:sm_80 cubin/cubin_probe.exe:sm_90 \
         triton/nvcc/cuda_probe.fatbin:sm_80 triton/nvcc/cuda_probe.fatbin:sm_90 triton/nvcc/cuda_probe.o:sm_90 \
         cubin/cubin_probe.compressed.fatbin:sm_90; do
  file=${f%%:*} arch=${f##*:} n=$(basename "$file")-$arch
  rs "p-$n" parse "$F/$file" --format json
  a=$(res_usage "$F/$file.res-usage.txt" "$arch" | sort); b=$(ours "p-$n.out" "$arch" 2>&1 | sort)
  [ "$(rc "p-$n")" = 0 ] && [ -n "$a" ] && [ "$a" = "$b" ] &&
    pass "nvbin-01-$n" "$(echo "$a" | wc -l) kernels: registers and stack equal cuobjdump's" ||
    fail "nvbin-01-$n" "$(seen "p-$n") cuobjdump: $(echo "$a" | tr '\n' ';') regscope: $(echo "$b" | tr '\n' ';')"
done

# nvbin-02: compressed cubins (zstd: -Xfatbin -compress-all, CUDA 13's -rdc objects; LZ4: --compress-mode=speed)
# are decompressed and read (the compressed fatbin's figures are checked against cuobjdump in nvbin-01).
for file in cubin/cubin_probe.rdc.o cubin/compress/cubin_probe.speed.fatbin cubin/compress/cubin_probe.size.o; do
  n=$(basename "$file")
  rs "z-$n" parse "$F/$file" --format json
  k=$(jget "z-$n.out" "len(d['kernels'])" 2>/dev/null)
  [ "$(rc "z-$n")" = 0 ] && [ "${k:-0}" -ge 5 ] && pass "nvbin-02-$n" "$k kernels read from compressed cubins" ||
    fail "nvbin-02-$n" "$(seen "z-$n")"
done

# nvbin-03: explain on a cubin: nvdisasm's liveness joined with its line table; without nvdisasm one line, exit 2.
if [ -z "$NVDISASM" ]; then
  rs nd explain "$F/cubin/cubin_probe.sm_90.cubin"
  clean_error nd && [ "$(wc -l < nd.err)" = 1 ] && grep -q nvdisasm nd.err && pass nvbin-03a "$(first_err nd)" ||
    fail nvbin-03a "$(seen nd)"
  mkdir fake
  cat > fake/nvdisasm <<X
#!/bin/sh
# Stand-in for nvdisasm (a test double): prints what the real one printed on the GPU machine for
# fixtures/cubin/cubin_probe.sm_90.cubin (fixtures/cubin/README.md).
case "\$2" in
  -plr) cat "$F/nvdisasm-13.0/cubin_probe-sm_90.plr.txt" ;;
  -gi) cat "$F/nvdisasm-13.0/cubin_probe-sm_90.gi.txt" ;;
  *) echo "fake nvdisasm: unexpected \$*" >&2; exit 1 ;;
esac
X
  chmod +x fake/nvdisasm
  DISASM_PATH=$S/fake:$PATH
else
  skip nvbin-03a "nvdisasm is installed here ($NVDISASM): the missing-nvdisasm line is checked where it is not"
  DISASM_PATH=$PATH
fi
# caller's lines and its non-inlined callee's (nvdisasm lists the callee inside the caller's section)
first=$(grep -n 'float callee(' "$F/cubin/cubin_probe.cu" | cut -d: -f1)
last=$(grep -n 'int fib(' "$F/cubin/cubin_probe.cu" | cut -d: -f1)
PATH=$DISASM_PATH rs ex explain "$F/cubin/cubin_probe.sm_90.cubin" --kernel caller --format json
v=$(jget ex.out "[(k['name'], k['isa']['max_live']['vgprs'], k['registers'], k['isa']['peak']['line']) for k in d['kernels']]" 2>&1)
ok=$(jget ex.out "all(0 < k['isa']['max_live']['vgprs'] <= k['registers'] and $first <= k['isa']['peak']['line'] < $last for k in d['kernels']) and len(d['kernels']) == 1" 2>&1)
[ "$(rc ex)" = 0 ] && [ "$ok" = True ] &&
  pass nvbin-03b "caller (name, peak live, allocated, peak line): $v; the peak within lines $first-$((last - 1))" ||
  fail nvbin-03b "$(seen ex) $v"

# nvbin-03c: a Triton cubin (CUDA 12.8's ptxas, ELF ABI v1) through the nvdisasm Triton ships (12.8: CUDA
# 13's does no flow analysis on such cubins), recorded on the GPU machine: the lines are the Python
# kernel's. nvbin-03d: with an nvdisasm that refuses it as CUDA 13's did there, the kernel says why.
softmax=$F/triton/cache-sm_90/QS27CRKRHDTGGWIY6OF6TTVHPQSRGHCNMRYMD6GEABJ4WLWDC7WA/softmax_kernel.cubin
mkdir -p fake12 fake13
cat > fake12/nvdisasm <<X
#!/bin/sh
# Stand-in for Triton 3.6's nvdisasm 12.8 (a test double): its output on the GPU machine for $softmax
case "\$2" in
  -plr) cat "$F/nvdisasm-12.8/triton-softmax-sm_90a.plr.txt" ;;
  -gi) cat "$F/nvdisasm-12.8/triton-softmax-sm_90a.gi.txt" ;;
  *) exit 1 ;;
esac
X
cat > fake13/nvdisasm <<'X'
#!/bin/sh
# Stand-in for CUDA 13.0's nvdisasm on a CUDA 12 cubin (a test double): what it printed on the GPU machine
echo "nvdisasm warning : Disassembling Std Elf to Old format or Old Elf to Std format not supported yet, switching to Old format" >&2
echo "nvdisasm warning : Dataflow analysis disabled due to previous warnings" >&2
[ "$2" = -plr ] && { echo "nvdisasm error   : Cannot print life ranges as flow analysis is disabled" >&2; exit 1; }
exit 0
X
chmod +x fake12/nvdisasm fake13/nvdisasm
from=$(grep -n '^def softmax_kernel' "$F/triton/kernels.py" | cut -d: -f1)
to=$(awk -v f="$from" 'NR > f && /^(@triton|def )/ { print NR; exit }' "$F/triton/kernels.py")
PATH=$S/fake12:$PATH rs tx explain "$softmax" --format json
v=$(jget tx.out "[(h['file'] or '').split('/')[-1] + ':' + str(h['line']) for k in d['kernels'] for h in k['isa']['hottest'][:1]]" 2>&1)
ok=$(jget tx.out "[k['isa']['hottest'][0]['file'].endswith('/kernels.py') and $from <= k['isa']['hottest'][0]['line'] < $to and $from <= k['isa']['peak']['line'] < $to and 0 < k['isa']['max_live']['vgprs'] <= k['registers'] for k in d['kernels']] == [True]" 2>&1)
[ "$(rc tx)" = 0 ] && [ "$ok" = True ] && pass nvbin-03c "softmax_kernel's hottest line $v and its peak are in the Python function (lines $from-$((to - 1)))" ||
  fail nvbin-03c "$(seen tx) $v"
PATH=$S/fake13:$PATH rs t13 explain "$softmax"
grep -q 'CUDA 12 or older (ELF ABI v1)' t13.out t13.err && grep -q 'triton/backends/nvidia/bin' t13.out t13.err &&
  pass nvbin-03d "$(grep -h -o 'the cubin was written by CUDA 12[^;]*' t13.out t13.err | head -1)" || fail nvbin-03d "$(seen t13) $(head -c 300 t13.out)"

# nvbin-04: nvcc under regscope wrap as CMake's CUDA launcher: collect equals analyze --cuda-arch.
if ! command -v cmake > /dev/null || [ ! -x "$NVCC" ]; then
  skip nvbin-04 "cmake or nvcc is not installed"
else
  mkdir -p cu/src
  cp "$F/cubin/cubin_probe.cu" cu/src/probe.cu
  cat > cu/src/main.cu <<'C'
#include <cstdio>
__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
int main() { std::printf("%p\n", (void *)axpy); return 0; }
C
  cat > cu/CMakeLists.txt <<'C'
cmake_minimum_required(VERSION 3.21)
project(cu LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80 90)
add_executable(app src/main.cu src/probe.cu)
C
  cmake -S cu -B b -DCMAKE_CUDA_COMPILER="$NVCC" -DCMAKE_CUDA_COMPILER_LAUNCHER="$R;wrap;--" > cmake.log 2>&1 &&
    cmake --build b > build.log 2>&1; built=$?
  rs col collect b --format json
  rs an analyze cu/src/main.cu cu/src/probe.cu --cuda-arch sm_80 --cuda-arch sm_90 --no-cache --format json
  fig="sorted((k['name'], k['arch'], k['registers'], k['stack_bytes'], k['spill_store_bytes'], k['shared_bytes'], k['line']) for k in d['kernels'])"
  a=$(jget col.out "$fig" 2>&1); b=$(jget an.out "$fig" 2>&1)
  [ "$built" = 0 ] && [ "$(rc col)" = 0 ] && [ "$a" = "$b" ] && [ "$(ls b/CMakeFiles/app.dir/src/*.regscope.json | wc -l)" = 2 ] &&
    pass nvbin-04a "collect gives analyze's figures for 12 kernel/arch pairs, from 2 sidecars" ||
    fail nvbin-04a "built=$built $(seen col) collect: $a analyze: $b"
  ! grep -q 'ptxas info' build.log && pass nvbin-04b "the build log has no ptxas lines regscope added" ||
    fail nvbin-04b "$(grep -m2 'ptxas info' build.log)"
fi
