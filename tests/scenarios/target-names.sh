#!/bin/bash
# Target names users type: product names, Debian's clang names, one missing arch,
# target IDs with features, and the new targets (gfx950, gfx115x, gfx1201, sm_100, sm_120).
. "$(dirname "$0")/lib.sh"; need hipcc "$LLVM19" clang++-19; scratch
lbm_src > lbm.hip      # the seed's LBM kernel
rs a analyze lbm.hip --offload-arch MI250X --format json
[ "$(rc a)" = 0 ] && [ "$(jget a.out "sorted(set(k['arch'] for k in d['kernels']))" 2>/dev/null)" = "['gfx90a']" ] \
  && pass target-01 "analyze --offload-arch MI250X compiles for gfx90a" || fail target-01 "analyze --offload-arch MI250X: $(seen a)"
for cc in a:clang++-19 b:/usr/bin/clang++-19; do
  rs b analyze lbm.hip --compiler ${cc#*:} -- -O3
  [ "$(rc b)" = 0 ] && grep -q 'kernel' b.out && pass target-02${cc%%:*} "--compiler ${cc#*:}" || fail target-02${cc%%:*} "--compiler ${cc#*:}: $(seen b)"
done
rs c analyze lbm.hip --compiler "$LLVM19" --offload-arch gfx942,gfx90a,gfx1030 --format json -- -O3
archs=$(jget c.out "sorted(set(k['arch'] for k in d['kernels']))" 2>/dev/null)
if [ "$(rc c)" = 2 ] && [ "$archs" = "['gfx1030', 'gfx90a']" ] && grep -q gfx942 c.err; then pass target-03 "gfx942 missing from the device libraries: gfx90a and gfx1030 analysed, gfx942 an error, exit 2"
else fail target-03 "clang 19 --offload-arch gfx942,gfx90a,gfx1030: exit $(rc c), archs reported: ${archs:-none} $(first_err c)"; fi
rs d analyze lbm.hip --offload-arch gfx90a:xnack+,gfx90a:xnack- --format json
n=$(jget d.out "len(d['kernels'])" 2>/dev/null)
if [ "$(rc d)" = 0 ] && [ "$n" = 2 ] && grep -q 'gfx90a:xnack+' d.out && grep -q 'gfx90a:xnack-' d.out && ! grep -q 'disagree' d.err; then
  pass target-04 "gfx90a:xnack+ and gfx90a:xnack- are two rows with their target IDs"
else fail target-04 "gfx90a:xnack+,gfx90a:xnack-: ${n:-no} rows, target IDs in JSON: $(grep -o 'gfx90a:xnack[+-]' d.out | sort -u | tr '\n' ' ')$(grep -c disagree d.err) 'disagree' warnings (exit $(rc d))"; fi
# New targets: the LLVM test's occupancy rows (llvm/test/CodeGen/AMDGPU/occupancy-levels.ll, workgroups of
# 1..32 threads, tabulated in LLVM's test and quoted in the project's research notes) and CUDA 13's Blackwell targets.
row() { # ID ARCH "VGPRS:WAVES ..." [extra occupancy args]
  local id=$1 arch=$2 pairs=$3 bad=""; shift 3
  for p in $pairs; do
    rs o occupancy --arch $arch --vgprs ${p%%:*} --block-size 32 "$@" --format json
    local w=$(jget o.out "d['occupancy']['waves_per_simd']" 2>/dev/null)
    [ "$(rc o)" = 0 ] && [ "$w" = "${p##*:}" ] || bad="$bad ${p%%:*}->${w:-err}(want ${p##*:})"
  done
  [ -z "$bad" ] && pass "$id" "$arch: occupancy-levels.ll rows reproduced" || fail "$id" "$arch:$bad $(first_err o)"
}
row target-05 gfx950  "24:8 64:8 72:7 96:5 128:4 168:3 200:2 256:2"
row target-06 gfx1151 "24:16 64:16 72:16 96:16 128:10 168:9 200:7 256:5"
row target-07 gfx1201 "24:16 64:16 72:16 96:16 128:10 168:9 200:7 256:5"
row target-08 gfx1150 "24:16 64:16 72:12 96:10 128:8 168:5 200:4 256:4"
row target-09 gfx1152 "24:16 64:16 72:12 96:10 128:8 168:5 200:4 256:4"
rs l occupancy --arch gfx950 --vgprs 1 --lds 8252 --block-size 64 --format json
w=$(jget l.out "d['occupancy']['waves_per_simd']" 2>/dev/null)
[ "$(rc l)" = 0 ] && [ "$w" = 5 ] && pass target-10 "gfx950: 8252 B of LDS, 64-thread workgroups -> 5 (160 KiB LDS, 1280 B granule)" \
  || fail target-10 "gfx950 --lds 8252 --block-size 64: ${w:-error} (LLVM test: 5) $(first_err l)"
for a in gfx950 gfx1151 gfx1201; do rs t table --arch $a; [ "$(rc t)" = 0 ] && pass target-11-$a "table --arch $a" || fail target-11-$a "table --arch $a: $(first_err t)"; done
for a in sm_100 sm_120; do
  rs n occupancy --arch $a --registers 32
  [ "$(rc n)" = 0 ] && pass target-12-$a "occupancy --arch $a" || fail target-12-$a "occupancy --arch $a: $(first_err n)"
done
