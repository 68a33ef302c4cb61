#!/bin/bash
# Crashes, hangs, internal errors and unknown archs that users and fuzzing met:
# each one's reproducer, built by the script, run through the regscope binary under test.
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
# One real hipcc build shared by crash-04, crash-07 and crash-08: a device code object, its .s and the
# remarks log.
printf '#include <hip/hip_runtime.h>\n__global__ void empty_kernel() {}\n__global__ void one(int *p) { p[threadIdx.x] = 1; }\n' > e.hip
mkdir b && ( cd b && hipcc --offload-arch=gfx90a --save-temps -Rpass-analysis=kernel-resource-usage --cuda-device-only -c ../e.hip -o e.o 2> ../r.log )
BUILT=$PWD; SFILE=$BUILT/b/e-hip-amdgcn-amd-amdhsa-gfx90a.s; O=$BUILT/b/e-hip-amdgcn-amd-amdhsa-gfx90a.out
[ -f "$SFILE" ] && [ -f "$O" ] || { fail crash-ctl "hipcc --save-temps wrote no .s/.out: $(tail -2 r.log)"; exit 1; }
# ---- crash-01-sm75-no-smem
( mkdir -p crash-01 && cd crash-01 || exit 1
# sm_75 without shared memory divided by zero (SIGFPE).
rs a occupancy --arch sm_75 --registers 32
[ "$(rc a)" = 0 ] && pass crash-01a "occupancy --arch sm_75 --registers 32" || fail crash-01a "occupancy --arch sm_75 --registers 32: exit $(rc a) $(first_err a)"
printf '__global__ void axpy(float a, const float *x, float *y) { int i = blockIdx.x * blockDim.x + threadIdx.x; y[i] += a * x[i]; }\n' > k.cu
if ! have "$NVCC"; then skip crash-01b "nvcc is not installed"; else
rs b analyze k.cu --cuda-arch sm_75
[ "$(rc b)" = 0 ] && grep -q axpy b.out && pass crash-01b "analyze --cuda-arch sm_75 of a kernel without shared memory" || fail crash-01b "analyze --cuda-arch sm_75: exit $(rc b) $(first_err b)"
fi
)
# ---- crash-02-long-lines
( mkdir -p crash-02 && cd crash-02 || exit 1
# std::regex recursion overflowed the stack on long lines (a build log line > 50-80 KB
# containing ": ", a .s whose LLVM 20 .set line names ~2,000 callees).
{ cat "$BUILT/r.log"; python3 -c "print('FAILED: ' + ' '.join('obj/file%05d.o' % i for i in range(8000)) + ' : error: link failed')"; } > build.log
rst a 60 parse build.log --arch gfx90a
if crashed a; then fail crash-02a "build log with a $(awk '{ if (length > m) m = length } END { print m }' build.log)-byte line: exit $(rc a)"
elif [ "$(rc a)" = 0 ] && grep -q empty_kernel a.out; then pass crash-02a "build log with a 100 KB 'FAILED: ...' line: parsed"
else fail crash-02a "build log with a long line: exit $(rc a) $(first_err a)"; fi
calls=$(python3 -c "print(', '.join('_Z7callee%dv.num_vgpr' % i for i in range(2000)))")
with_vgpr "max(42, $calls)" > long.s
rst b 60 parse long.s
crashed b && fail crash-02b ".s with a $(wc -L < long.s)-byte .set line: exit $(rc b)" || pass crash-02b ".s with a 2,000-callee .set line: exit $(rc b), no crash"
)
# ---- crash-03-expression-evaluator
( mkdir -p crash-03 && cd crash-03 || exit 1
# The LLVM 20+ expression evaluator: INT64_MIN / -1 and % -1 (SIGFPE), 30,000 nested
# parentheses (stack), 63 chained .set symbols (exponential time), digit and shift overflow (UB): an
# overflow makes the figure unresolved (with a note) or an error, never a crash, a hang or a made-up number.
sane() { # ID WHAT: the kernel's VGPRs are unresolved/null or the run is a clean error; never a crash or garbage
  local id=$1 what=$2
  if crashed x; then fail "$id" "$what: exit $(rc x) (crash or hang)"; return; fi
  if clean_error x; then pass "$id" "$what: clean error"; return; fi
  local v=$(jget x.out "[(k['vgprs'], 'vgprs' in k['unresolved']) for k in d['kernels'] if k['name'] == '_Z6simplePf'][0]" 2>/dev/null)
  case "$v" in "(None, True)") pass "$id" "$what: unresolved" ;; *) fail "$id" "$what: exit $(rc x), vgprs (value, unresolved) = $v" ;; esac
}
t() { with_vgpr "$3" > x.s; rst x 30 parse x.s --format json; sane "$1" "$2"; }
t crash-03a 'INT64_MIN / -1'           '(-9223372036854775807-1)/-1'
t crash-03b 'INT64_MIN % -1'           '(-9223372036854775807-1)%-1'
t crash-03c '30,000 nested parentheses' "$(python3 -c "print('(' * 30000 + '1' + ')' * 30000)")"
t crash-03d 'shift by 64'              '1<<64'
t crash-03e 'shift by -1'              '1<<-1'
t crash-03f '23-digit literal'         '99999999999999999999999'
t crash-03g 'INT64_MAX + 1'            '9223372036854775807+1'
# 63 chained symbols s_i = s_{i-1} + s_{i-1}: must finish quickly (memoised); the value 2^62 is not a VGPR count
chain=$(python3 -c "
print('\t.set s_0, 1')
for i in range(1, 63): print('\t.set s_%d, s_%d+s_%d' % (i, i - 1, i - 1))")
llvm20_s | python3 -c "import sys; s=sys.stdin.read(); sys.stdout.write(s.replace('\t.set _Z6simplePf.num_vgpr, 42', sys.argv[1] + '\n\t.set _Z6simplePf.num_vgpr, s_62'))" "$chain" > x.s
start=$(date +%s); rst x 20 parse x.s --format json; took=$(( $(date +%s) - start ))
if crashed x; then fail crash-03h "63 chained .set symbols: exit $(rc x) after ${took}s (hang)"; else pass crash-03h "63 chained .set symbols: ${took}s, exit $(rc x)"; fi
)
# ---- crash-04-crafted-code-objects
( mkdir -p crash-04 && cd crash-04 || exit 1
# Crafted code objects crashed LLVM 15's libraries (msgpack map with non-scalar keys:
# SIGILL; SHT_NOTE offset+size wrapping: SIGSEGV; a msgpack array claiming 268 M elements: 6.3 GB).
# Each must be a clean error (exit 2) or a report, within bounded memory.
obj=$O
rs ok parse "$obj"; [ "$(rc ok)" = 0 ] || fail crash-04-ctl "the uncrafted code object does not parse: $(seen ok)"
for m in a:map-keys b:wrap-note c:huge-array; do
  id=crash-04${m%%:*}; mode=${m#*:}
  python3 "$SCN/craft_elf.py" "$obj" $mode x.hsaco || { fail $id "could not craft $mode"; continue; }
  # at most 1 GiB of address space (the 268 M-element array asked for 6.3 GB), 60 s
  ( ulimit -v 1048576; TMPDIR=$RS_TMP exec timeout -s KILL 60 "$R" parse x.hsaco ) > x.out 2> x.err; echo $? > x.rc
  if crashed x; then fail $id "$mode: exit $(rc x) $(first_err x | cut -c1-80)"
  elif clean_error x || [ "$(rc x)" = 0 ]; then pass $id "$mode: exit $(rc x) $(first_err x | cut -c1-80)"
  else fail $id "$mode: exit $(rc x) $(first_err x)"; fi
done
)
# ---- crash-05-bundle-loop
( mkdir -p crash-05 && cd crash-05 || exit 1
# A 67-byte offload bundle whose entry length wraps the read offset back to the same entry,
# with an entry count of 2^64-1, looped for ever. Must end (bounded by the input size).
python3 - > x.hipfb <<'PY'
import struct, sys
magic = b'__CLANG_OFFLOAD_BUNDLE__'                    # 24 bytes
entry = 24 + 8                                          # the first entry starts at 32
body = struct.pack('<Q', 2**64 - 1)                     # entry count
# offset, size, triple size: the triple size takes the cursor from 56 back to 32 (mod 2^64)
body += struct.pack('<QQQ', 0, 0, (entry - (entry + 24)) % 2**64)
data = magic + body
data += b'hipv4-amdgcn'[: 67 - len(data)]
assert len(data) == 67
sys.stdout.buffer.write(data)
PY
rst a 20 parse x.hipfb
if [ "$(rc a)" = 137 ] || [ "$(rc a)" = 124 ]; then fail crash-05 "67-byte bundle: still running after 20 s (killed)"
elif crashed a; then fail crash-05 "67-byte bundle: exit $(rc a)"
else pass crash-05 "67-byte bundle: exit $(rc a) $(first_err a | cut -c1-60)"; fi
)
# ---- crash-06-cuda-int-overflow
( mkdir -p crash-06 && cd crash-06 || exit 1
# int overflow in the CUDA model (SIGFPE): huge --smem/--dynamic-smem, and ptxas's
# "4294966272 bytes smem" narrowed to int.
rs a occupancy --arch sm_90 --registers 32 --smem 2147483647 --dynamic-smem 2147482625
if crashed a; then fail crash-06a "occupancy --smem 2147483647 --dynamic-smem 2147482625: exit $(rc a)"
elif [ "$(rc a)" = 0 ] || clean_error a; then pass crash-06a "huge --smem/--dynamic-smem: exit $(rc a)"
else fail crash-06a "huge --smem: exit $(rc a) $(first_err a)"; fi
# an nvcc whose ptxas reports 4294966272 bytes of shared memory (the real nvcc, its report rewritten)
have "$NVCC" || { skip crash-06b "nvcc is not installed"; exit 0; }
export RS_REAL_NVCC=$NVCC
mkdir bin; cat > bin/nvcc <<'W'
#!/bin/bash
log=$(mktemp); "$RS_REAL_NVCC" "$@" 2> "$log"; rc=$?
sed 's/ [0-9][0-9]* bytes smem/ 4294966272 bytes smem/' "$log" >&2; rm -f "$log"; exit $rc
W
chmod +x bin/nvcc
printf '__global__ void k(float *p) { __shared__ float s[256]; s[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = s[255 - threadIdx.x]; }\n' > sm.cu
rs b analyze sm.cu --cuda-arch sm_90 --compiler "$PWD/bin/nvcc"
if crashed b; then fail crash-06b "ptxas '4294966272 bytes smem': exit $(rc b)"
elif [ "$(rc b)" = 0 ] || clean_error b; then pass crash-06b "ptxas '4294966272 bytes smem': exit $(rc b) $(first_err b | cut -c1-60)"
else fail crash-06b "ptxas '4294966272 bytes smem': exit $(rc b) $(first_err b)"; fi
)
# ---- crash-07-internal-errors
( mkdir -p crash-07 && cd crash-07 || exit 1
# Errors a user can cause are one "regscope: error:" line naming the file and the problem,
# never "internal error" (stoll/stoi out of range, a baseline with "demangled": 5, a non-UTF-8 kernel name
# in --format json), and LLVM's YAML/JSON parsers do not print their own multi-line diagnostics.
cp "$BUILT/e.hip" "$BUILT/r.log" .
one_line() { # ID WHAT FILE-NAMED: exit 2, stderr one regscope error line naming FILE
  local n=$(grep -c . x.err)
  if clean_error x && [ "$n" = 1 ] && grep -q "$3" x.err; then pass "$1" "$2: $(first_err x | cut -c1-90)"
  else fail "$1" "$2: exit $(rc x), $n stderr lines, first: $(first_err x | cut -c1-110)"; fi
}
sed 's/; NumVgprs: 2$/; NumVgprs: 100000000000000000000000/' $SFILE > big.s
rs x parse big.s; one_line crash-07a '.s value 1e23' big.s
sed 's/VGPRs: 2 /VGPRs: 99999999999 /' r.log > big.log
rs x parse big.log --arch gfx90a
if clean_error x; then pass crash-07b "remark 'VGPRs: 99999999999': $(first_err x | cut -c1-80)"
else fail crash-07b "remark 'VGPRs: 99999999999': exit $(rc x), $(grep -oE '99999999999 \([0-9]+\)|internal error.*' x.out x.err | head -1)"; fi
rs base baseline e.hip -o b.json
python3 -c "import json; d=json.load(open('b.json')); d['kernels'][0]['demangled'] = 5; json.dump(d, open('b5.json', 'w'))"
rs x gate e.hip --baseline b5.json; one_line crash-07c 'baseline with "demangled": 5' b5.json
python3 -c "s=open('$O','rb').read(); open('nu.hsaco','wb').write(s.replace(b'_Z3onePi', b'_Z3on\xffPi'))"
rs x parse nu.hsaco --format json
if [ "$(rc x)" = 0 ] && python3 -c "import json; json.load(open('x.out'))" 2>/dev/null; then pass crash-07d "non-UTF-8 kernel name: valid JSON"
elif clean_error x; then pass crash-07d "non-UTF-8 kernel name: $(first_err x | cut -c1-80)"
else fail crash-07d "code object with a non-UTF-8 kernel name, --format json: exit $(rc x) $(first_err x | cut -c1-100)"; fi
python3 -c "s=open('$SFILE','rb').read(); open('nu.s','wb').write(s.replace(b'_Z3onePi', b'_Z3on\xffPi'))"
rs x parse nu.s; one_line crash-07e '.s with a non-UTF-8 kernel name (YAML metadata)' nu.s
printf -- '--- !Analysis\nPass: kernel-resource-usage\nName: FunctionName\nDebugLoc: { File: e.hip, Line: 3, Column: 1 }\nFunction: _Z3onePi\nArgs:\n  - String: [unclosed\n' > bad-hip-amdgcn-amd-amdhsa-gfx90a.opt.yaml
rs x parse bad-hip-amdgcn-amd-amdhsa-gfx90a.opt.yaml; one_line crash-07f 'malformed .opt.yaml' opt.yaml
)
# ---- crash-08-parse-unknown-arch
( mkdir -p crash-08 && cd crash-08 || exit 1
# parse with an unknown arch (--arch gfx9zz, or a code object naming one) exits 2 as
# analyze does; a .s truncated inside its metadata block is exit 2, as README says.
cp "$BUILT/r.log" .
rs x parse r.log --arch gfx9zz
clean_error x && grep -q gfx9zz x.err && pass crash-08a "parse --arch gfx9zz: exit 2" || fail crash-08a "parse build.log --arch gfx9zz: exit $(rc x) $(first_err x | cut -c1-90)"
# a code object whose metadata names an unknown processor (same length: gfx90a -> gfx9zz)
python3 -c "s=open('$O','rb').read(); open('zz.hsaco','wb').write(s.replace(b'gfx90a', b'gfx9zz'))"
rs x parse zz.hsaco
clean_error x && pass crash-08b "code object naming gfx9zz: exit 2" || fail crash-08b "code object naming gfx9zz: exit $(rc x) $(first_err x | cut -c1-90)"
sed 's/amdgcn-amd-amdhsa--gfx90a/amdgcn-amd-amdhsa--gfx9zz/g; s/gfx90a/gfx9zz/g' $SFILE > zz.s
rs x parse zz.s
clean_error x && pass crash-08c ".s naming gfx9zz: exit 2" || fail crash-08c ".s naming gfx9zz: exit $(rc x) $(first_err x | cut -c1-90)"
# truncated inside the .amdgpu_metadata block
n=$(grep -n 'amdhsa.kernels:' $SFILE | head -1 | cut -d: -f1)
head -n $((n + 6)) $SFILE > trunc.s
rs x parse trunc.s
clean_error x && pass crash-08d ".s truncated inside its metadata block: exit 2" || fail crash-08d ".s truncated inside .amdgpu_metadata: exit $(rc x) $(first_err x | cut -c1-90)"
)
