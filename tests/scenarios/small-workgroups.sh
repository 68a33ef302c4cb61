#!/bin/bash
# A 64-thread workgroup with 64 KiB of LDS: one workgroup per CU, one wave on one SIMD,
# 1 of 32 wave slots (3.1 %) on gfx90a (rocprof-compute measures 3.10 % for its LDS exercise, whose
# kernel is shaped like this one). Report waves per CU and the fraction of wave slots, and let the
# limiter/next step use it.
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
yax_src lds > lds.hip
per_cu() { # FILE.out (text) / FILE.json: does it state 1 wave per CU or 1/32 = 3.1 % of wave slots?
  grep -qE '3\.1[0-9]*[[:space:]]*%|1/32|1 wave(s)?(/| per )CU' "$1" && return 0
  python3 - "$2" <<'PY' 2>/dev/null
import json, sys
def walk(x, path=''):
    if isinstance(x, dict):
        for k, v in x.items(): yield from walk(v, path + '.' + k)
    else: yield path, x
d = json.load(open(sys.argv[1]))
hits = [(p, v) for p, v in walk(d) if ('per_cu' in p or 'wave_slots' in p or 'slot' in p) and v in (1, 0.03125, 3.1, 3.125, 3.13)]
sys.exit(0 if hits else 1)
PY
}
rs t analyze lds.hip --block-size 64
rs j analyze lds.hip --block-size 64 --format json
lds=$(jget j.out "d['kernels'][0]['lds_bytes']" 2>/dev/null)
if [ "$lds" != 65536 ]; then fail smallwg-ctl "the kernel has ${lds:-no} bytes of LDS, not 65536 ($(seen j))"
elif [ "$(rc t)" = 0 ] && per_cu t.out j.out; then pass smallwg-01 "64-thread workgroups + 64 KiB LDS: 1 wave per CU / 3.1 % of wave slots reported"
else fail smallwg-01 "64 KiB LDS kernel with --block-size 64: $(grep 'yax' t.out | head -1 | tr -s ' ' | cut -c1-120) (no waves per CU / 3.1 %)"; fi
rs o occupancy --arch gfx90a --vgprs 32 --lds 65536 --block-size 64
rs oj occupancy --arch gfx90a --vgprs 32 --lds 65536 --block-size 64 --format json
if [ "$(rc o)" = 0 ] && per_cu o.out oj.out; then pass smallwg-02 "occupancy calculator: waves per CU for a 1-wave workgroup"
else fail smallwg-02 "occupancy --vgprs 32 --lds 65536 --block-size 64: $(head -1 o.out) (no waves per CU / 3.1 %)"; fi
# next step: what would give one more wave per CU (2 workgroups per CU need <= 32 KiB each)
nxt=$(jget oj.out "d['occupancy']['next']" 2>/dev/null)
free=$(jget oj.out "d['occupancy']['next']['lds_bytes_to_free']" 2>/dev/null)
if [ -n "$free" ] && [ "$free" != 0 ]; then
  rs o2 occupancy --arch gfx90a --vgprs 32 --lds $((65536 - free)) --block-size 64 --format json
  w1=$(jget o2.out "d['occupancy']['waves_per_simd']"); want=$(jget oj.out "d['occupancy']['next']['waves_per_simd']")
  # the promised figure must be what the calculator gives after freeing that much
  [ "$w1" = "$want" ] && [ "$free" -le 32768 ] && pass smallwg-03 "next step frees $free B for $want waves/SIMD, and the calculator agrees" \
    || fail smallwg-03 "next step says free $free B -> $want waves/SIMD; with $((65536 - free)) B of LDS the calculator gives $w1"
else fail smallwg-03 "no LDS next step: $nxt"; fi
