#!/bin/bash
# parse of a multi-arch build log must not report one arch's figures under another's
# name (exit 2, pointing to the per-arch .s or .opt.yaml); remark lines of a parallel build are
# associated by their file:line, not by their order. Real hipcc logs of the LBM kernel and the stream project.
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
lbm_src > lbm.hip
stream_project bs
RM=(-Rpass-analysis=kernel-resource-usage --cuda-device-only -c)
hipcc --offload-arch=gfx90a,gfx908 "${RM[@]}" lbm.hip -o lbm.o 2> multi.log
rs p parse multi.log --arch gfx90a --format json
if [ "$(rc p)" = 2 ] && grep -qE '\.s\b|opt\.yaml' p.err; then pass buildlog-01 "multi-arch log: exit 2, points to the per-arch .s/.opt.yaml"
else
  v=$(jget p.out "[(k['arch'], k['vgprs'], k['agprs']) for k in d['kernels']]" 2>/dev/null)
  fail buildlog-01 "multi-arch log (gfx90a,gfx908) parsed with --arch gfx90a: exit $(rc p), kernels $v"
fi
# parallel build: two translation units' remark lines interleaved one by one
hipcc --offload-arch=gfx90a "${RM[@]}" lbm.hip -o lbm1.o 2> a.log
( cd bs && hipcc --offload-arch=gfx90a "${RM[@]}" src/hip/HIPStream.cpp -o ../bs.o -I src "${STREAM_FLAGS[@]}" ) 2> b.log
python3 - a.log b.log > mixed.log <<'PY'
import sys, itertools
a, b = ([l for l in open(f) if ': remark: ' in l] for f in sys.argv[1:])
for x, y in itertools.zip_longest(a, b):
    for l in (x, y):
        if l: sys.stdout.write(l)
PY
rs sa parse a.log --arch gfx90a --format json
( cd bs && rs ../sb parse ../b.log --arch gfx90a --format json )
rs mx parse mixed.log --arch gfx90a --format json
key="sorted((k['name'], k['vgprs'], k['sgprs'], k['agprs'], k['scratch_bytes'], k['vgpr_spills']) for k in d['kernels'])"
if [ "$(rc sa)" != 0 ] || [ "$(rc sb)" != 0 ]; then fail buildlog-02-ctl "parse of the separate logs failed: $(seen sa) / $(seen sb)"
elif [ "$(rc mx)" != 0 ]; then fail buildlog-02 "interleaved log: $(seen mx)"
else
  sep=$(python3 -c "import json; d={'kernels': json.load(open('sa.out'))['kernels'] + json.load(open('sb.out'))['kernels']}; print($key)")
  mix=$(jget mx.out "$key")
  [ "$sep" = "$mix" ] && pass buildlog-02 "interleaved remarks of two files give each kernel its own figures" \
    || fail buildlog-02 "interleaved remarks: $(python3 -c "
s=$sep; m=$mix
print(len(m), 'kernels vs', len(s), 'separately;', 'differing:', [x for x in m if x not in s][:2])")"
fi
