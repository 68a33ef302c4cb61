#!/bin/bash
# A Triton cache gated against a baseline recorded from another compile of the same
# kernels, as after a Triton upgrade (every cache hash changes; the code may spill). The caches are
# real Triton 3.6 output (fixtures/triton/README.md): cache-gfx942, and cache-squeezed-gfx942, the
# same kernels and specialisations compiled with waves_per_eu=4 (registers squeezed: spills).
# They sit in a project tree among files regscope does not read.
. "$(dirname "$0")/lib.sh"; scratch
T=$SRC/fixtures/triton
mkdir -p proj/.git proj/src proj/triton-cache
cp -r "$T/cache-gfx942" proj/triton-cache/v1
printf 'import triton\n' > proj/src/model.py
printf '{"lr": 0.1}\n' > proj/config.json
printf '# notes\n' > proj/triton-cache/README.md
cd proj

rs base baseline triton-cache/v1 -o regscope-baseline.json
n=$(ls triton-cache/v1 | wc -l)
if [ "$(rc base)" = 0 ] && grep -q "wrote $n kernels" base.err; then pass triton-01 "baseline of a Triton cache: $n kernels"
else fail triton-01 "$(seen base)"; fi
if [ "$(rc base)" = 0 ] && ! grep -q -E '[A-Z2-7]{52}' regscope-baseline.json && grep -q '"triton:kernels.py:' regscope-baseline.json
then pass triton-02 "the baseline keys name the Python file, function and specialisation, never the cache hash"
else fail triton-02 "keys: $(grep '"file"' regscope-baseline.json | head -2 | tr '\n' ' ')"; fi

rs same gate triton-cache/v1 --baseline regscope-baseline.json
if [ "$(rc same)" = 0 ]; then pass triton-03 "the same cache passes its own baseline"
else fail triton-03 "$(seen same)"; fi

# The upgrade: the old entries are gone, the new compile has new hashes.
rm -rf triton-cache/v1 && cp -r "$T/cache-squeezed-gfx942" triton-cache/v2
rs up gate triton-cache/v2 --baseline regscope-baseline.json
if [ "$(rc up)" = 1 ] && grep -q 'spill' up.out && ! grep -q 'new kernel' up.out; then
  pass triton-04 "after the upgrade the gate fails (exit 1) on the same kernels' spills, none taken for new"
else fail triton-04 "rc=$(rc up) out: $(grep -v '^$' up.out | head -3 | cut -c1-160 | tr '\n' '|')"; fi

# Broken entries fail closed: metadata without num_warps; a hash directory with only its JSON.
cp -r "$T/cache-gfx942" triton-cache/v3
d=$(ls -d triton-cache/v3/*/ | head -1)
meta=$(ls "$d"*.json | grep -v __grp__)
python3 -c "import json,sys; p=sys.argv[1]; d=json.load(open(p)); del d['num_warps']; json.dump(d, open(p,'w'))" "$meta"
rs bad gate triton-cache/v3 --baseline regscope-baseline.json
if [ "$(rc bad)" = 2 ] && grep -q "without 'num_warps'" bad.err; then pass triton-05 "metadata without num_warps: exit 2, one line naming it"
else fail triton-05 "$(seen bad)"; fi
rm -rf triton-cache/v3 && mkdir -p triton-cache/v4 && cp -r "$T/cache-gfx942/JARZ6UJEJA6SPUXRLA5VE5CP6TPFNBK4UT37UT7O5HV3PZHG2JAA" triton-cache/v4/
find triton-cache/v4 -type f ! -name add_kernel.json -delete
rs lone parse triton-cache/v4
if [ "$(rc lone)" = 2 ] && grep -q "without its code" lone.err; then pass triton-06 "a hash directory with only its metadata: exit 2, never a guess"
else fail triton-06 "$(seen lone)"; fi

# NVIDIA entries: read through the cubin reader; a cubin records no spill bytes, so --max-spills
# judges the per-thread local memory (spills or local arrays): attn_fwd's 608 bytes fail a rule of 0.
rm -rf triton-cache/v4 && cp -r "$T/cache-sm_90" triton-cache/nv
rs nv gate triton-cache/nv --max-spills 0
if [ "$(rc nv)" = 1 ] && grep -q "local memory (spills or local arrays)" nv.out nv.err; then pass triton-07 "a Triton NVIDIA cache under --max-spills 0: its local memory judged, exit 1, never a pass"
else fail triton-07 "$(seen nv)"; fi

# One threshold for both vendors: a cache of gfx942 and sm_90 entries. --min-occupancy 16 is in one
# vendor's unit (16 warps/SM; no gfx942 kernel has 16 waves/SIMD): refused. 50% of each device's
# maximum judges every kernel, and the finding says the percent, the level, the maximum and the unit.
rm -rf triton-cache/nv && mkdir -p triton-cache/mixed && cp -r "$T/cache-gfx942" "$T/cache-sm_90" triton-cache/mixed/
rs abs gate triton-cache/mixed --min-occupancy 16
if [ "$(rc abs)" = 2 ] && grep -q "can never be met on gfx942" abs.err; then pass triton-08 "a mixed cache under --min-occupancy 16 (one vendor's unit): refused, exit 2"
else fail triton-08 "$(seen abs)"; fi
rs pct gate triton-cache/mixed --min-occupancy 50%
if [ "$(rc pct)" = 1 ] && grep -q -E 'occupancy [0-9]+% \([0-9]+ of 8 waves/SIMD\) < 50%' pct.out &&
   grep -q -E 'occupancy [0-9]+% \([0-9]+ of 64 warps/SM\) < 50%' pct.out && ! grep -q 'not judged' pct.out; then
  pass triton-09 "--min-occupancy 50% judges the gfx942 and sm_90 kernels together, each finding in percent and its unit"
else fail triton-09 "rc=$(rc pct) $(grep -v '^$' pct.out | head -3 | cut -c1-160 | tr '\n' '|')"; fi
i=0
for v in 150% -1% abc% 0% %; do
  i=$((i + 1)); id=triton-10$(echo abcde | cut -c$i)
  rs bad gate triton-cache/mixed --min-occupancy="$v"
  if [ "$(rc bad)" = 2 ] && [ "$(grep -c . bad.err)" = 1 ] && grep -q "percent from 1% to 100%" bad.err; then
    pass "$id" "--min-occupancy $v: one line, exit 2"
  else fail "$id" "--min-occupancy $v: $(seen bad)"; fi
done
