#!/bin/bash
# Issue 16, items 8-10 (data loss: -o over inputs and special files, output flags in a compile database):
# each item's reproducer, built by the script, run through the regscope binary under test.
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
# ---- 16-08-output-is-input
( mkdir -p 16-08 && cd 16-08 || exit 1
# Issue 16 item 8: -o must refuse any path that is an input of the run, whatever its role
# (the baseline, the compile database, the config), and leave it byte-identical.
small_src > k.hip
rs base baseline k.hip -o b.json; cp b.json b.orig
same() { cmp -s "$1" "$2"; }
rs x gate k.hip --baseline b.json -o b.json
if [ "$(rc x)" = 2 ] && same b.json b.orig; then pass 16-08a "gate --baseline b.json -o b.json refused, baseline intact"
else fail 16-08a "gate --baseline b.json -o b.json: exit $(rc x), baseline $(same b.json b.orig && echo intact || echo REPLACED: $(head -c 60 b.json | tr '\n' ' '))"; fi
mkdir build; python3 - "$PWD" > build/compile_commands.json <<'PY'
import json, sys
r = sys.argv[1]
print(json.dumps([{"directory": r + "/build", "file": r + "/k.hip", "arguments": ["/usr/bin/hipcc", "--offload-arch=gfx90a", "-c", r + "/k.hip", "-o", "k.o"]}]))
PY
cp build/compile_commands.json db.orig
rs x analyze -p build -o build/compile_commands.json
if [ "$(rc x)" = 2 ] && same build/compile_commands.json db.orig; then pass 16-08b "analyze -p build -o build/compile_commands.json refused"
else fail 16-08b "analyze -p build -o build/compile_commands.json: exit $(rc x), database $(same build/compile_commands.json db.orig && echo intact || echo REPLACED)"; fi
printf '{"version": 1, "defaults": {"max_spills": 0}}\n' > rules.json; cp rules.json rules.orig
rs x gate k.hip --config rules.json -o rules.json
if [ "$(rc x)" = 2 ] && same rules.json rules.orig; then pass 16-08c "gate --config rules.json -o rules.json refused"
else fail 16-08c "gate --config rules.json -o rules.json: exit $(rc x), config $(same rules.json rules.orig && echo intact || echo REPLACED)"; fi
cp k.hip k.orig
rs x analyze k.hip -o k.hip
[ "$(rc x)" = 2 ] && same k.hip k.orig && pass 16-08d "analyze k.hip -o k.hip refused (control: a FILE argument)" || fail 16-08d "analyze k.hip -o k.hip: exit $(rc x)"
)
# ---- 16-09-output-special-files
( mkdir -p 16-09 && cd 16-09 || exit 1
# Issue 16 item 9: -o must not replace a FIFO, a device node or a symlink with a regular file: write
# through it or refuse. (The device node is made in the scratch directory; /dev is never touched.)
small_src > k.hip
"$R" analyze k.hip > /dev/null 2>&1   # warm the scratch cache
mkdir real; : > real/report.txt; ln -s real/report.txt link.txt
rs x analyze k.hip -o link.txt
if [ -L link.txt ] && { [ "$(rc x)" = 2 ] || grep -q kernel real/report.txt; }; then pass 16-09a "-o symlink: still a symlink ($( [ "$(rc x)" = 2 ] && echo refused || echo written through))"
else fail 16-09a "-o symlink: exit $(rc x), link.txt is now $(stat -c %F link.txt), target $(wc -c < real/report.txt) bytes"; fi
mkfifo pipe; cat pipe > got.txt & reader=$!
rs x analyze k.hip -o pipe
sleep 0.5; kill $reader 2>/dev/null; wait $reader 2>/dev/null
if [ -p pipe ] && { [ "$(rc x)" = 2 ] || grep -q kernel got.txt; }; then pass 16-09b "-o FIFO: still a FIFO ($( [ "$(rc x)" = 2 ] && echo refused || echo written through))"
else fail 16-09b "-o FIFO: exit $(rc x), pipe is now $(stat -c %F pipe), the reader got $(wc -c < got.txt) bytes"; fi
if [ "$(id -u)" = 0 ] && mknod nul c 1 3 2>/dev/null; then
  rs x analyze k.hip -o nul
  [ -c nul ] && pass 16-09c "-o character device (a null device made in the scratch dir): still a device (exit $(rc x))" \
             || fail 16-09c "-o character device: exit $(rc x), nul is now $(stat -c %F nul) (as root, -o /dev/null would replace the system's)"
else skip 16-09c "not root: cannot make a device node"; fi
)
# ---- 16-10-db-output-flags
( mkdir -p 16-10 && cd 16-10 || exit 1
# Issue 16 item 10: flags in a compile database that write files (--output=PATH, -MJ PATH, ...) must be
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
t 16-10a '--output=PATH'          out.o      --output=$B/out.o
t 16-10b '--output PATH'          out2.o     --output $B/out2.o
t 16-10c '-MJ PATH'               frag.json  -MJ $B/frag.json
t 16-10d '-MJPATH (joined)'       frag2.json -MJ$B/frag2.json
t 16-10e '-o PATH (control)'      out3.o     -o $B/out3.o
t 16-10f '-MD -MF PATH (control)' dep.d      -MD -MF $B/dep.d
t 16-10g '-save-temps=obj'        k-hip-amdgcn-amd-amdhsa-gfx90a.s -save-temps=obj -o $B/k.o
t 16-10h '--serialize-diagnostics PATH' diag.dia --serialize-diagnostics $B/diag.dia
t 16-10i '-ftime-trace=PATH'      trace.json -ftime-trace=$B/trace.json
)
