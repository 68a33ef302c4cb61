#!/bin/bash
# Warnings, errors and hints for small things users noticed (gate without rules or kernels, bad flag values,
# a mistyped subcommand, a .cu without --cuda-arch, the LDS next step, the SGPR cliff, analyze reading
# .regscope.json, SIGTERM's exit code, the benchmark and bootstrap scripts), one check each.
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
lbm_src > lbm.hip      # the seed's LBM kernel
warns() { grep -qi 'warning' "$1.err"; }
rs a gate lbm.hip
[ "$(rc a)" = 0 ] && warns a && pass hints-01 "gate with no rules warns" || fail hints-01 "gate with no rules: exit $(rc a), no warning ($(head -1 a.out))"
printf '#include <hip/hip_runtime.h>\nint host_only(int x) { return x + 1; }\n' > host.hip
rs b gate host.hip --max-spills 0
[ "$(rc b)" != 1 ] && warns b && pass hints-02 "gate over 0 kernels warns" || fail hints-02 "gate over 0 kernels: exit $(rc b), $(head -1 b.out) $(first_err b)"
rs c gate lbm.hip --max-spills -1
[ "$(rc c)" = 2 ] && grep -q 'regscope: error' c.err && pass hints-03 "--max-spills -1 is an error" || fail hints-03 "--max-spills -1: exit $(rc c) $(first_err c)"
rs d gate lbm.hip --min-occupancy 9
{ [ "$(rc d)" = 2 ] || warns d; } && grep -qE '\b8\b' d.err && pass hints-04 "--min-occupancy 9 on an 8-wave arch: error or warning naming the maximum" \
  || fail hints-04 "--min-occupancy 9 on gfx90a: exit $(rc d), $(head -1 d.out) $(first_err d)"
printf '{"version": 1, "defaults": {"max_spills": 0}, "kernels": [{"match": "no_such_kernel*", "min_occupancy": 5}]}\n' > .regscope.json
rs e gate lbm.hip
[ "$(rc e)" != 2 ] && warns e && grep -q 'no_such_kernel' e.err && pass hints-05 "a config glob that matches nothing: warning naming it" || fail hints-05 "config glob matching nothing: exit $(rc e), no warning $(first_err e)"
rm .regscope.json
rs f analyze lbm.hip --jobs 0
len=$(wc -c < f.err)
[ "$(rc f)" = 2 ] && [ "$len" -lt 200 ] && ! grep -qE '[0-9]{20}' f.err && pass hints-06 "--jobs 0: a short clear error" || fail hints-06 "--jobs 0: exit $(rc f), $len bytes of stderr: $(first_err f | cut -c1-100)"
rs g analyse lbm.hip
grep -q 'analyze' g.err g.out && pass hints-07 "'regscope analyse' suggests analyze" || fail hints-07 "'regscope analyse': $(first_err g)"
cat > k.cu <<'K'
// the stream benchmark's CUDA model, one kernel of it
template <typename T> __global__ void copy_kernel(const T *a, T *c) { c[blockDim.x * blockIdx.x + threadIdx.x] = a[blockDim.x * blockIdx.x + threadIdx.x]; }
template __global__ void copy_kernel<float>(const float *, float *);
K
rs h analyze k.cu
[ "$(rc h)" = 2 ] && grep -q -- '--cuda-arch' h.err && pass hints-08 ".cu without --cuda-arch says to use --cuda-arch" || fail hints-08 ".cu without --cuda-arch: $(first_err h)"
# LDS next step: the promised figure must be what freeing that much gives, with a unit
lds_next() { # ID ARGS...
  local id=$1; shift
  rs n occupancy --arch gfx90a "$@" --format json; rs nt occupancy --arch gfx90a "$@"
  local free=$(jget n.out "d['occupancy']['next']['lds_bytes_to_free']") want=$(jget n.out "d['occupancy']['next']['waves_per_simd']")
  local lds=$(jget n.out "d['resources']['lds_bytes']") line=$(grep 'next step' nt.out)
  rs m occupancy --arch gfx90a $(echo "$@" | sed "s/--lds [0-9]*/--lds $((lds - free))/") --format json
  local got=$(jget m.out "d['occupancy']['waves_per_simd']")
  if [ "$got" = "$want" ] && echo "$line" | grep -qE 'KiB|bytes|[0-9] ?B\b'; then pass "$id" "occupancy $*: '$line' holds ($got)"
  else fail "$id" "occupancy $*: '$line', but with $((lds - free)) B of LDS it is $got waves/SIMD"; fi
}
lds_next hints-09a --vgprs 32 --lds 40960
lds_next hints-09b --vgprs 32 --lds 65536 --block-size 64
# HEADROOM with SGPRs: a kernel 2 SGPRs from losing a wave (90 SGPRs and the XNACK pair, 94, on
# gfx90a: beyond 96, seven granules of 16, 7 waves)
printf '#include <hip/hip_runtime.h>\n__global__ void sg(int *p) { asm volatile("" ::: "s89"); p[threadIdx.x] = 1; }\n' > sg.hip
rs i analyze sg.hip --format json
rs it analyze sg.hip --wide
s=$(jget i.out "d['kernels'][0]['sgprs']" 2>/dev/null); room=$(jget i.out "d['kernels'][0]['occupancy']['headroom']['sgprs']" 2>/dev/null)
row=$(grep 'sg(' it.out | head -1)
if [ "$s" != 90 ]; then fail hints-10-ctl "the clobber kernel has $s SGPRs, not 90 (compiler changed?)"
elif [ "$room" = 2 ] && echo "$row" | grep -qE '\+2 SGPRs'; then pass hints-10 "HEADROOM names the SGPR cliff (+$room SGPRs)"
else fail hints-10 "90-SGPR kernel (97 with its XNACK pair loses a wave): headroom $room, HEADROOM '$(echo "$row" | grep -oE '\+[0-9]+ [A-Z]+.*$')'"; fi
# analyze reads .regscope.json as gate does
printf '#include <hip/hip_runtime.h>\n#ifndef RS_CONFIG_SEEN\n#error config flags not used\n#endif\n__global__ void k(int *p) { p[0] = 1; }\n' > cfg.hip
printf '{"version": 1, "compiler_flags": ["-DRS_CONFIG_SEEN"]}\n' > .regscope.json
rs j analyze cfg.hip
rs j2 gate cfg.hip --max-spills 100
[ "$(rc j)" = 0 ] && pass hints-11 "analyze uses .regscope.json's compiler_flags (as gate: exit $(rc j2))" || fail hints-11 "analyze ignores .regscope.json's compiler_flags (gate: exit $(rc j2)): $(first_err j)"
rm .regscope.json
# SIGTERM -> 143 (SIGINT -> 130 is signals-02b in signals.sh)
# The signal must arrive while the compiler runs: wait for regscope's first child instead of a fixed
# sleep (an unloaded machine compiles lbm.hip in under 1.5 s, and the run would end before the kill).
TMPDIR=$RS_TMP "$R" analyze lbm.hip --no-cache > /dev/null 2>&1 & p=$!
for _ in $(seq 200); do pgrep -P $p > /dev/null && break; sleep 0.05; done
kill -TERM $p; wait $p; code=$?
[ $code = 143 ] && pass hints-12 "SIGTERM exits 143" || fail hints-12 "SIGTERM during analyze exits $code"
B=$SRC/scripts/bench-analyze.sh
grep -q -- '--no-cache' "$B" && pass hints-13 "bench-analyze.sh times cold runs (--no-cache)" || fail hints-13 "$B does not pass --no-cache"
grep -qE -- '--target +regscope\b' "$SRC/scripts/bootstrap.sh" && pass hints-14 "bootstrap (README step 1) builds only the regscope target" || fail hints-14 "scripts/bootstrap.sh builds every target (no --target regscope)"
