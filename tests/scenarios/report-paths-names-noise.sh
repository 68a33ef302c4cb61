#!/bin/bash
# Report paths, names and noise: valid SARIF for real paths (outside the cwd, with spaces), full
# kernel names in every machine format, findings rather than one note per healthy kernel, notes said once.
. "$(dirname "$0")/lib.sh"; need hipcc git; scratch
lbm_src > lbm.hip      # the seed's LBM kernel
mkdir -p "proj/my kernels" outside && cp lbm.hip "proj/my kernels/k.hip" && cp lbm.hip outside/o.hip
add_spills "proj/my kernels/k.hip" && add_spills outside/o.hip  # spills: findings
( cd proj && git init -q . && rs ../s analyze "my kernels/k.hip" ../outside/o.hip --format sarif -o ../r.sarif )
python3 - r.sarif <<'PY' > s1.txt; st=$?
import json, sys
d = json.load(open(sys.argv[1])); run = d['runs'][0]; bad = []
bases = run.get('originalUriBaseIds', {})
for r in run.get('results', []):
    for loc in r.get('locations', []):
        a = loc['physicalLocation']['artifactLocation']; u = a['uri']
        if ' ' in u: bad.append('unencoded space: ' + u)
        if u.startswith('/'): bad.append('absolute path as a relative reference: ' + u)
        if not u.startswith('file://') and not a.get('uriBaseId'): bad.append('relative uri without uriBaseId: ' + u)
        if a.get('uriBaseId') and a['uriBaseId'] not in bases: bad.append('uriBaseId %s not in originalUriBaseIds' % a['uriBaseId'])
print('; '.join(sorted(set(bad)))[:300]); sys.exit(1 if bad or not run.get('results') else 0)
PY
[ "$(rc s)" = 0 ] && [ $st = 0 ] && pass report-01 "SARIF URIs: repo file relative with uriBaseId, outside file as file://, spaces encoded" || fail report-01 "SARIF: $(cat s1.txt) (exit $(rc s))"
# Microsoft's validator, when the build installed it (scripts/install-test-tools.sh): the third argument.
MT=$EXTRA
if [ -n "$MT" ] && [ -x "$MT" ]; then
  DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 "$MT" validate --rule-kind "Sarif;Gh" --output v.json r.sarif > v.log 2>&1
  probs=$(grep -E ": (error|warning) (SARIF|GH)[0-9]+" v.log | grep -v SARIF2005 | grep -oE '(SARIF|GH)[0-9]+' | sort | uniq -c | tr -s ' ' | tr '\n' ',')
  [ -z "$probs" ] && pass report-02 "Microsoft SARIF Multitool (Sarif;Gh rules): valid" || fail report-02 "SARIF Multitool: $probs"
else skip report-02 "SARIF Multitool not installed (${MT:-no path given})"; fi
# two instantiations whose names differ only after the 48th character (a user's update_particles<float,4,true/false>)
cat > tp.hip <<'K'
#include <hip/hip_runtime.h>
namespace simulation { namespace integrators {
struct Particle { float x, y, z, vx, vy, vz; };
template <typename T, int N, bool Damped>
__global__ void update_particles(Particle *p, const T *forces, T dt, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  for (int k = 0; k < N; ++k) { p[i].vx += forces[i * N + k] * dt; if (Damped) p[i].vx *= T(0.99); }
  T history[64];                       // dynamically indexed: scratch, so each kernel is a finding
  for (int k = 0; k < 64; ++k) history[(k * count) & 63] = forces[k] * dt;
  p[i].x += p[i].vx * dt + history[i & 63];
}
template __global__ void update_particles<float, 4, true>(Particle *, const float *, float, int);
template __global__ void update_particles<float, 4, false>(Particle *, const float *, float, int);
} }
K
names_ok() { grep -q '4, true>' "$1" && grep -q '4, false>' "$1"; }
for f in json sarif markdown github junit; do
  rs n analyze tp.hip --format $f -o tp.$f
  case $f in
    json) ok=$(jget tp.json "len(set(k['demangled'] for k in d['kernels'])) == 2 and all('4, true>' in k['demangled'] or '4, false>' in k['demangled'] for k in d['kernels'])" 2>/dev/null) ;;
    sarif) ok=$(jget tp.sarif "(lambda m: any('4, true>' in x for x in m) and any('4, false>' in x for x in m))([r['message']['text'] for r in d['runs'][0]['results']])" 2>/dev/null) ;;
    junit) ok=$(python3 -c "
import xml.etree.ElementTree as ET
n=[tc.get('name') for tc in ET.parse('tp.junit').iter('testcase')]
print(len(n) == len(set(n)) and any('4, true>' in x for x in n) and any('4, false>' in x for x in n))" 2>/dev/null) ;;
    *) names_ok tp.$f && ok=True || ok=False ;;
  esac
  [ "$(rc n)" = 0 ] && [ "$ok" = True ] && pass report-03-$f "full kernel names (update_particles<float, 4, true/false>) in $f" \
    || fail report-03-$f "$f: the two instantiations are not told apart: $(grep -o 'integrators::update_[^ ]\{0,30\}' tp.$f 2>/dev/null | sort -u | head -3 | tr '\n' ' ')"
done
# a healthy project (the stream benchmark: 14 kernels, no spills, no scratch) gives no annotation per kernel
stream_project bs
( cd bs && rs ../g analyze src/hip/HIPStream.cpp --format github -- -I "$PWD/src" "${STREAM_FLAGS[@]}"
  rs ../sf analyze src/hip/HIPStream.cpp --format sarif -o ../bs.sarif -- -I "$PWD/src" "${STREAM_FLAGS[@]}" )
( cd bs && rs ../hj analyze src/hip/HIPStream.cpp --format json -- -I "$PWD/src" "${STREAM_FLAGS[@]}" )
nk=$(jget hj.out "len(d['kernels']) if all(k['vgpr_spills'] + k['sgpr_spills'] + k['scratch_bytes'] == 0 for k in d['kernels']) else 'unhealthy'" 2>/dev/null)
case "$nk" in ''|unhealthy|0) fail report-04-ctl "the stream project is not a set of healthy kernels: ${nk:-no kernels} ($(seen hj))" ;; esac
na=$(grep -c '^::' g.out); ns=$(jget bs.sarif "len(d['runs'][0]['results'])" 2>/dev/null)
[ "$(rc g)" = 0 ] && [ "$na" = 0 ] && pass report-04 "github format: no annotation for $nk healthy kernels" || fail report-04 "github format: $na annotations for the stream project's $nk healthy kernels ($(head -1 g.out | cut -c1-80))"
[ "$ns" = 0 ] && pass report-05 "sarif: no result for healthy kernels" || fail report-05 "sarif: $ns results for the stream project's $nk healthy kernels"
# notes said once, with the kernels they cover (the stream project on gfx908)
( cd bs && rs ../t analyze src/hip/HIPStream.cpp --offload-arch gfx908 -- -I "$PWD/src" "${STREAM_FLAGS[@]}" )
# A note line is "KERNEL [ARCH]: text" or "K1 [ARCH], K2 [ARCH] and N more: text"; the same text twice is a repeat.
read -r n dups < <(python3 - t.out <<'PY'
import collections, re, sys
lines = open(sys.argv[1]).read().split('\n')
notes = lines[lines.index('notes:') + 1:] if 'notes:' in lines else []
notes = notes[:next((i for i, l in enumerate(notes) if not l.startswith(' ')), len(notes))]
joined = []  # a note wraps at the width: its continuation lines are indented four spaces
for l in notes:
    if l.startswith('    ') and joined: joined[-1] += ' ' + l.strip()
    else: joined.append(l.strip())
notes = joined
texts = collections.Counter(re.sub(r'^.*?\](?: and \d+ more)?: ', '', l) for l in notes)
print(len(notes), ' '.join(str(c) for c in texts.values() if c > 1) or '-')
PY
)
# control: the 14 kernels without launch bounds on gfx908 do get notes (28 note lines for them before notes were grouped)
[ "${n:-0}" -gt 0 ] || fail report-06-ctl "no notes at all for the stream project on gfx908: the check below would mean nothing ($(seen t))"
[ "$(rc t)" = 0 ] && [ "$dups" = - ] && pass report-06 "notes not repeated per kernel ($n note lines)" || fail report-06 "stream project on gfx908: $n note lines, the same note repeated ${dups} times"
