#!/bin/bash
# Nothing the user has is lost: -o over inputs and special files, output flags in a compile database,
# concurrent baseline updates, the cache key, output that cannot be written. Each case's reproducer,
# built by the script, run through the regscope binary under test.
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
# ---- files-01-output-is-input
( mkdir -p files-01 && cd files-01 || exit 1
# -o must refuse any path that is an input of the run, whatever its role
# (the baseline, the compile database, the config), and leave it byte-identical.
small_src > k.hip
rs base baseline k.hip -o b.json; cp b.json b.orig
same() { cmp -s "$1" "$2"; }
rs x gate k.hip --baseline b.json -o b.json
if [ "$(rc x)" = 2 ] && same b.json b.orig; then pass files-01a "gate --baseline b.json -o b.json refused, baseline intact"
else fail files-01a "gate --baseline b.json -o b.json: exit $(rc x), baseline $(same b.json b.orig && echo intact || echo REPLACED: $(head -c 60 b.json | tr '\n' ' '))"; fi
mkdir build; python3 - "$PWD" > build/compile_commands.json <<'PY'
import json, sys
r = sys.argv[1]
print(json.dumps([{"directory": r + "/build", "file": r + "/k.hip", "arguments": ["/usr/bin/hipcc", "--offload-arch=gfx90a", "-c", r + "/k.hip", "-o", "k.o"]}]))
PY
cp build/compile_commands.json db.orig
rs x analyze -p build -o build/compile_commands.json
if [ "$(rc x)" = 2 ] && same build/compile_commands.json db.orig; then pass files-01b "analyze -p build -o build/compile_commands.json refused"
else fail files-01b "analyze -p build -o build/compile_commands.json: exit $(rc x), database $(same build/compile_commands.json db.orig && echo intact || echo REPLACED)"; fi
printf '{"version": 1, "defaults": {"max_spills": 0}}\n' > rules.json; cp rules.json rules.orig
rs x gate k.hip --config rules.json -o rules.json
if [ "$(rc x)" = 2 ] && same rules.json rules.orig; then pass files-01c "gate --config rules.json -o rules.json refused"
else fail files-01c "gate --config rules.json -o rules.json: exit $(rc x), config $(same rules.json rules.orig && echo intact || echo REPLACED)"; fi
cp k.hip k.orig
rs x analyze k.hip -o k.hip
[ "$(rc x)" = 2 ] && same k.hip k.orig && pass files-01d "analyze k.hip -o k.hip refused (control: a FILE argument)" || fail files-01d "analyze k.hip -o k.hip: exit $(rc x)"
)
# ---- files-02-output-special-files
( mkdir -p files-02 && cd files-02 || exit 1
# -o must not replace a FIFO, a device node or a symlink with a regular file: write
# through it or refuse. (The device node is made in the scratch directory; /dev is never touched.)
small_src > k.hip
"$R" analyze k.hip > /dev/null 2>&1   # warm the scratch cache
mkdir real; : > real/report.txt; ln -s real/report.txt link.txt
rs x analyze k.hip -o link.txt
if [ -L link.txt ] && { [ "$(rc x)" = 2 ] || grep -q kernel real/report.txt; }; then pass files-02a "-o symlink: still a symlink ($( [ "$(rc x)" = 2 ] && echo refused || echo written through))"
else fail files-02a "-o symlink: exit $(rc x), link.txt is now $(stat -c %F link.txt), target $(wc -c < real/report.txt) bytes"; fi
mkfifo pipe; cat pipe > got.txt & reader=$!
rs x analyze k.hip -o pipe
sleep 0.5; kill $reader 2>/dev/null; wait $reader 2>/dev/null
if [ -p pipe ] && { [ "$(rc x)" = 2 ] || grep -q kernel got.txt; }; then pass files-02b "-o FIFO: still a FIFO ($( [ "$(rc x)" = 2 ] && echo refused || echo written through))"
else fail files-02b "-o FIFO: exit $(rc x), pipe is now $(stat -c %F pipe), the reader got $(wc -c < got.txt) bytes"; fi
if [ "$(id -u)" = 0 ] && mknod nul c 1 3 2>/dev/null; then
  rs x analyze k.hip -o nul
  [ -c nul ] && pass files-02c "-o character device (a null device made in the scratch dir): still a device (exit $(rc x))" \
             || fail files-02c "-o character device: exit $(rc x), nul is now $(stat -c %F nul) (as root, -o /dev/null would replace the system's)"
else skip files-02c "not root: cannot make a device node"; fi
)
# ---- files-03-db-output-flags
( mkdir -p files-03 && cd files-03 || exit 1
# Flags in a compile database that write files (--output=PATH, -MJ PATH, ...) must be
# dropped, in every spelling: nothing lands in the build tree.
small_src > k.hip; mkdir build
db() { python3 - "$PWD" "$@" > build/compile_commands.json <<'PY'
import json, sys
r, extra = sys.argv[1], sys.argv[2:]
print(json.dumps([{"directory": r + "/build", "file": r + "/k.hip",
                   "arguments": ["/usr/bin/hipcc", "--offload-arch=gfx90a", *extra, "-c", r + "/k.hip"]}]))
PY
}
t() { # ID WHAT WRITTEN-FILE FLAGS...
  local id=$1 what=$2 f=$3; shift 3
  rm -f "build/$f" "$f"; db "$@"
  rs x analyze -p build --no-cache
  if [ -e "build/$f" ] || [ -e "$f" ]; then fail "$id" "$what: wrote $(ls build/$f $f 2>/dev/null) (exit $(rc x))"
  elif [ "$(rc x)" = 0 ]; then pass "$id" "$what: nothing written"
  else fail "$id" "$what: exit $(rc x) $(first_err x)"; fi
}
# absolute paths into build/ (relative ones would land in regscope's private temp dir)
B=$PWD/build
t files-03a '--output=PATH'          out.o      --output=$B/out.o
t files-03b '--output PATH'          out2.o     --output $B/out2.o
t files-03c '-MJ PATH'               frag.json  -MJ $B/frag.json
t files-03d '-MJPATH (joined)'       frag2.json -MJ$B/frag2.json
t files-03e '-o PATH (control)'      out3.o     -o $B/out3.o
t files-03f '-MD -MF PATH (control)' dep.d      -MD -MF $B/dep.d
t files-03g '-save-temps=obj'        k-hip-amdgcn-amd-amdhsa-gfx90a.s -save-temps=obj -o $B/k.o
t files-03h '--serialize-diagnostics PATH' diag.dia --serialize-diagnostics $B/diag.dia
t files-03i '-ftime-trace=PATH'      trace.json -ftime-trace=$B/trace.json
)
# ---- files-04-baselines: concurrent updates, keys through symlinks, duplicate entries
( mkdir -p files-04 && cd files-04 || exit 1
# 8 concurrent `gate kN.hip --baseline b.json --update-baseline` must keep all 8 kernels
# (they kept 2 to 4, every process exit 0); a baseline reached through a symlinked directory must find its
# entries (every kernel was "added: new kernel"); two entries for one key are an error naming it.
O=$PWD; mkdir -p repo/src && cd repo && git init -q . && ROOT=$PWD
for i in 0 1 2 3 4 5 6 7; do printf '__attribute__((global)) void k%s(int *p) { p[0] = %s; }\n' $i $i > src/k$i.hip; done
printf '{"regscope_baseline": "1.1", "kernels": []}\n' > b.json
for i in 0 1 2 3 4 5 6 7; do
  TMPDIR=$RS_TMP "$R" gate src/k$i.hip --baseline b.json --update-baseline --no-cache -- -nogpuinc > u$i.out 2> u$i.err & pids[$i]=$!
done
codes=""; for i in 0 1 2 3 4 5 6 7; do wait ${pids[$i]}; codes="$codes$?"; done
n=$(python3 -c "import json; print(len(json.load(open('b.json'))['kernels']))" 2>/dev/null)
if [ "$codes" = 00000000 ] && [ "$n" = 8 ] && [ ! -e b.json.lock ]; then pass files-04a "8 concurrent gate --update-baseline: 8 of 8 kernels kept, no lock file left"
else fail files-04a "8 concurrent gate --update-baseline: exits $codes, ${n:-?} of 8 kernels kept$( [ -e b.json.lock ] && echo ', b.json.lock left')"; fi
# the same repository through a symlinked directory, from outside it and from a subdirectory
ln -s "$ROOT" ../via-link
cp b.json b.before
( cd .. && rs $O/l1 gate via-link/src/k0.hip --baseline via-link/b.json --no-cache -- -nogpuinc )
( cd ../via-link/src && rs $O/l2 gate k1.hip --baseline ../b.json --update-baseline --no-cache -- -nogpuinc )
n=$(python3 -c "import json; print(len(json.load(open('b.json'))['kernels']))" 2>/dev/null)
if [ "$(rc $O/l1)" = 0 ] && ! grep -qi 'added' $O/l1.out $O/l1.err; then pass files-04b "gate through a symlinked directory, from outside the repository: no kernel 'added'"
else fail files-04b "gate through a symlinked directory: $(seen $O/l1) $(grep -i added $O/l1.out | head -1)"; fi
if [ "$(rc $O/l2)" = 0 ] && [ "$n" = 8 ] && ! grep -qi 'added' $O/l2.out; then pass files-04c "--update-baseline through a symlinked directory, from src/: still 8 entries"
else fail files-04c "--update-baseline through a symlinked directory: $(seen $O/l2), ${n:-?} entries (8 before)"; fi
# the baseline itself a link to a shared file outside the repository (CI caches, a mounted volume)
mkdir -p ../shared && cp b.json ../shared/b.json && ln -s ../shared/b.json linked.json
( cd src && rs $O/l3 gate k2.hip k3.hip --baseline ../linked.json --update-baseline --no-cache -- -nogpuinc )
n=$(python3 -c "import json; print(len(json.load(open('../shared/b.json'))['kernels']))" 2>/dev/null)
if [ "$(rc $O/l3)" = 0 ] && [ "$n" = 8 ] && [ -L linked.json ] && ! grep -qi 'added' $O/l3.out; then pass files-04e "a baseline linked to a file outside the repository keeps the repository's keys: no kernel added, 8 entries"
else fail files-04e "baseline as a link outside the repository: $(seen $O/l3), ${n:-?} entries (8 before) $(grep -i added $O/l3.out | head -1)"; fi
# a duplicated entry (the second with fewer registers would have hidden a regression)
python3 - <<'PY'
import json
d = json.load(open('b.json')); e = dict(d['kernels'][0]); e['registers'] = 1; d['kernels'].append(e)
json.dump(d, open('dup.json', 'w'), indent=2)
PY
name=$(jget dup.json "d['kernels'][0]['name']")
rs d gate src/k0.hip --baseline dup.json --no-cache -- -nogpuinc
if clean_error d && grep -q "two entries for kernel $name" d.err; then pass files-04d "a baseline with two entries for one key: exit 2 naming $name"
else fail files-04d "duplicate baseline entry: $(seen d)"; fi
)
# ---- files-05-cache-key: environment, include search
( mkdir -p files-05 && cd files-05 || exit 1
# The result cache must not serve figures from another compile: environment variables that
# change the compile (HIPCC_COMPILE_FLAGS_APPEND, CPATH), and a header that now shadows the one read from a
# later -I directory (each gave the light kernel's figures from the cache where a recompile gives the heavy one's).
mkdir -p inc1 inc2 light heavy
cat > k.hip <<'K'
#include "cfg.h"
__attribute__((global)) void k(float *out, const float *in) {
  float v[ROWS];
  for (int i = 0; i < ROWS; ++i) v[i] = in[i * 977];
  float s = 0;
  for (int i = 0; i < ROWS; ++i)
    for (int j = i; j < ROWS; ++j) s += v[i] * v[j] + (i ^ j);
  out[0] = s;
}
K
printf '#ifndef ROWS\n#define ROWS 2\n#endif\n' > light/cfg.h
printf '#define ROWS 96\n' > heavy/cfg.h
cp light/cfg.h inc2/cfg.h
vgprs() { jget "$1.out" "d['kernels'][0].get('vgprs', d['kernels'][0].get('registers'))" 2>/dev/null; }
fresh() { rs "$1" analyze k.hip --format json --no-cache -- -nogpuinc "${@:2}"; }
cached() { rs "$1" analyze k.hip --format json -- -nogpuinc "${@:2}"; }
cached c0 -I inc1 -I inc2; cached c0b -I inc1 -I inc2   # the light kernel, stored and served
HIPCC_COMPILE_FLAGS_APPEND="-DROWS=96" cached e1 -I inc1 -I inc2
HIPCC_COMPILE_FLAGS_APPEND="-DROWS=96" fresh f1 -I inc1 -I inc2
if [ -n "$(vgprs e1)" ] && [ "$(vgprs e1)" = "$(vgprs f1)" ] && [ "$(vgprs f1)" != "$(vgprs c0)" ]; then
  pass files-05a "HIPCC_COMPILE_FLAGS_APPEND=-DROWS=96: the cache gives $(vgprs e1) VGPRs, as a recompile ($(vgprs c0) without)"
else fail files-05a "HIPCC_COMPILE_FLAGS_APPEND: cached $(vgprs e1), recompiled $(vgprs f1), light $(vgprs c0)"; fi
cached c1 -I light; CPATH=$PWD/heavy cached e2; CPATH=$PWD/heavy fresh f2
CPATH=$PWD/light cached c2; CPATH=$PWD/heavy cached e3
if [ -n "$(vgprs e3)" ] && [ "$(vgprs e3)" = "$(vgprs f2)" ] && [ "$(vgprs c2)" != "$(vgprs f2)" ]; then
  pass files-05b "CPATH to another cfg.h: the cache gives $(vgprs e3) VGPRs, as a recompile"
else fail files-05b "CPATH: cached $(vgprs e3), recompiled $(vgprs f2), light $(vgprs c2)"; fi
cached c3 -I inc1 -I inc2; cp heavy/cfg.h inc1/cfg.h   # now shadows inc2/cfg.h
cached e4 -I inc1 -I inc2; fresh f4 -I inc1 -I inc2
if [ -n "$(vgprs e4)" ] && [ "$(vgprs e4)" = "$(vgprs f4)" ] && [ "$(vgprs c3)" != "$(vgprs f4)" ]; then
  pass files-05c "a cfg.h created in an earlier -I directory: the cache gives $(vgprs e4) VGPRs, as a recompile"
else fail files-05c "shadowing header: cached $(vgprs e4), recompiled $(vgprs f4), before $(vgprs c3)"; fi
)
# ---- files-06-unwritable-output
( mkdir -p files-06 && cd files-06 || exit 1
# Output that cannot be written is an error (exit 2 with a message), a broken pipe stays quiet.
printf '__attribute__((global)) void k(int *p) { p[0] = 1; }\n' > k.hip
"$R" analyze k.hip -- -nogpuinc > /dev/null 2>&1   # the cache, so that the runs below are quick
TMPDIR=$RS_TMP "$R" analyze k.hip -- -nogpuinc > /dev/full 2> full.err; c=$?
if [ $c = 2 ] && grep -q 'regscope: error: cannot write the report to stdout: No space left on device' full.err; then
  pass files-06a "report to /dev/full: exit 2, 'No space left on device'"
else fail files-06a "report to /dev/full: exit $c, $(head -1 full.err)"; fi
TMPDIR=$RS_TMP "$R" analyze k.hip -- -nogpuinc >&- 2> closed.err; c=$?
if [ $c = 2 ] && grep -q 'regscope: error: cannot write the report to stdout' closed.err; then pass files-06b "closed stdout: exit 2 with a message"
else fail files-06b "closed stdout: exit $c, $(head -1 closed.err)"; fi
for i in $(seq 40); do cp k.hip k$i.hip; done
TMPDIR=$RS_TMP "$R" analyze k*.hip --format csv -- -nogpuinc 2> pipe.err | head -1 > /dev/null; c=${PIPESTATUS[0]}
if [ ! -s pipe.err ]; then pass files-06c "a report piped into head: nothing on stderr (exit $c)"
else fail files-06c "piped into head: exit $c, $(head -1 pipe.err)"; fi
rs o analyze k.hip -o /dev/full -- -nogpuinc
if clean_error o && grep -q 'cannot write /dev/full: No space left on device' o.err; then pass files-06d "-o /dev/full: exit 2 naming the file"
else fail files-06d "-o /dev/full: $(seen o)"; fi
if [ "$(id -u)" = 0 ] && mkdir full && mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
  head -c 60000 /dev/zero > full/filler; echo old > full/report.txt
  for i in $(seq 60); do cp k.hip m$i.hip; done
  rs o analyze k*.hip m*.hip --format json -o full/report.txt -- -nogpuinc
  left=$(ls -A full | tr '\n' ' ')
  if clean_error o && [ "$(cat full/report.txt)" = old ] && [ "$left" = "filler report.txt " ]; then
    pass files-06e "-o to a full disk: exit 2 ($(first_err o | cut -c1-70)), the old report intact, no partial file"
  else fail files-06e "-o to a full disk: $(seen o), report.txt: $(head -c 20 full/report.txt), files: $left"; fi
  umount full
elif [ "$(id -u)" != 0 ]; then skip files-06e "not root: cannot mount a small tmpfs"
else skip files-06e "cannot mount a small tmpfs here, although root"; fi
)
