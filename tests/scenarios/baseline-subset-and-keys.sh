#!/bin/bash
# Issue 9 items 3 and 4, in a git repository with sub-directories (src/a/k1.hip = the seed's LBM kernel,
# src/b/k2.hip = a matrix multiplication including "matmul.hpp" from include/).
# 3: --update-baseline with a subset of files keeps every other file's entries; a gate over a subset does
#    not call the other files' kernels "removed".
# 4: baseline keys are paths relative to the repository root, whatever the cwd and however the file is
#    named; -p and file arguments agree; a real spill regression is reported as one.
. "$(dirname "$0")/lib.sh"; need hipcc git; scratch
make_repo repo; cd repo; ROOT=$PWD
rs base baseline src/a/k1.hip src/b/k2.hip -o regscope-baseline.json -- "${REPO_FLAGS[@]}"
n_b=$(entries regscope-baseline.json src/b/k2.hip 2>/dev/null); n_a=$(entries regscope-baseline.json src/a/k1.hip 2>/dev/null)
if [ "$(rc base)" != 0 ] || [ "${n_b:-0}" = 0 ] || [ "${n_a:-0}" = 0 ]; then
  fail 9-03-ctl "could not record the baseline: $(seen base)"; exit 1; fi
cp regscope-baseline.json before.json

# --- item 4: unchanged sources, named differently: nothing added or removed, exit 0
check_same() { # ID WHAT (run in the right cwd by the caller; r.* are the results)
  if grep -qiE 'added|removed' r.out r.err; then fail "$1" "$2: $(grep -iE 'added|removed' r.out r.err | head -2 | tr '\n' '|')"
  elif [ "$(rc r)" != 0 ]; then fail "$1" "$2: $(seen r)"; else pass "$1" "$2"; fi
}
( cd src/a && rs r gate k1.hip --baseline ../../regscope-baseline.json -- "${REPO_FLAGS[@]}"; check_same 9-04a 'unchanged file gated from src/a (k1.hip)' )
rs r gate "$ROOT/src/a/k1.hip" --baseline regscope-baseline.json -- "${REPO_FLAGS[@]}"; check_same 9-04b 'unchanged file gated by absolute path'
rs r gate ./src/a/../a/k1.hip --baseline regscope-baseline.json -- "${REPO_FLAGS[@]}"; check_same 9-04c 'unchanged file gated as ./src/a/../a/k1.hip'
# a compile database (build/, as CMake writes it: absolute file, directory build/)
mkdir -p build; python3 - "$ROOT" "${REPO_FLAGS[@]}" > build/compile_commands.json <<'PY'
import json, sys
root, flags = sys.argv[1], sys.argv[2:]
print(json.dumps([{"directory": root + "/build", "file": root + "/src/" + f,
                   "arguments": ["/usr/bin/hipcc", *flags, "--offload-arch=gfx90a", "-c", root + "/src/" + f, "-o", f + ".o"]}
                  for f in ("a/k1.hip", "b/k2.hip")], indent=1))
PY
rs r gate -p build --baseline regscope-baseline.json; check_same 9-04d 'unchanged project gated with -p build (baseline from file arguments)'
( cd src && rs r baseline a/k1.hip b/k2.hip -o ../sub-baseline.json -- "${REPO_FLAGS[@]}" )
rs r gate src/a/k1.hip src/b/k2.hip --baseline sub-baseline.json -- "${REPO_FLAGS[@]}"; check_same 9-04e 'baseline recorded from src/, gated from the root'

# --- item 3: the subset gate (what the pre-commit hook runs when only src/a/k1.hip is staged)
rs g gate src/a/k1.hip --baseline regscope-baseline.json -- "${REPO_FLAGS[@]}"
if grep -qi 'removed' g.out g.err; then fail 9-03a "gate over src/a/k1.hip lists other files' kernels as removed: $(grep -i removed g.out g.err | head -2 | tr '\n' '|')"
elif [ "$(rc g)" != 0 ]; then fail 9-03a "gate over an unchanged subset: $(seen g)"
else pass 9-03a "gate over a subset reports nothing removed"; fi

# --- item 4: a real spill regression (0 -> N), gated from a sub-directory, by absolute path and with -p:
# reported as a regression (exit 1), not as added + removed kernels.
add_spills src/a/k1.hip || { fail 9-04-ctl "could not add __launch_bounds__ to LBM"; exit 1; }
regress() { # ID WHAT
  if [ "$(rc r)" = 1 ] && grep -qi 'spill' r.out && ! grep -qiE 'added|removed' r.out r.err; then pass "$1" "$2"
  else fail "$1" "$2: rc=$(rc r), $(grep -iE 'spill|added|removed|FAIL|pass' r.out r.err | head -3 | cut -c1-120 | tr '\n' '|')"; fi
}
# (every file of the baseline is gated, so that item 3's subset behaviour does not enter here)
( cd src/a && rs r gate k1.hip ../b/k2.hip --baseline ../../regscope-baseline.json -- "${REPO_FLAGS[@]}"; regress 9-04f 'spill regression (0 -> N) reported when gated from src/a' )
rs r gate "$ROOT/src/a/k1.hip" "$ROOT/src/b/k2.hip" --baseline regscope-baseline.json -- "${REPO_FLAGS[@]}"; regress 9-04g 'spill regression reported when gated by absolute paths'
rs r gate -p build --baseline regscope-baseline.json; regress 9-04h 'spill regression reported with -p build'

# --- item 3: accept the change to k1 only
rs u gate src/a/k1.hip --baseline regscope-baseline.json --update-baseline -- "${REPO_FLAGS[@]}"
m_b=$(entries regscope-baseline.json src/b/k2.hip 2>/dev/null); m_a=$(entries regscope-baseline.json src/a/k1.hip 2>/dev/null)
if [ "$(rc u)" != 0 ]; then fail 9-03b "--update-baseline over src/a/k1.hip: $(seen u)"
elif [ "$m_b" != "$n_b" ]; then fail 9-03b "--update-baseline over src/a/k1.hip left ${m_b:-?} of src/b/k2.hip's $n_b entries (exit $(rc u))"
elif [ "$m_a" != "$n_a" ]; then fail 9-03b "src/a/k1.hip's entries went from $n_a to ${m_a:-?}"
else pass 9-03b "--update-baseline over one file keeps the other file's $n_b entries"; fi
# the kept entries are unchanged, the updated one carries the new spills
python3 - before.json regscope-baseline.json <<'PY' && pass 9-03c "other file's entries byte-for-byte the same, k1's entry updated" || fail 9-03c "entries changed that were not asked to change (or k1 not updated)"
import json, sys
b = [k for k in json.load(open(sys.argv[1]))['kernels']]
a = [k for k in json.load(open(sys.argv[2]))['kernels']]
other = lambda ks: sorted(json.dumps(k, sort_keys=True) for k in ks if 'src/b/k2.hip' in k['file'])
k1 = [k for k in a if 'src/a/k1.hip' in k['file']]
sys.exit(0 if other(a) == other(b) and k1 and all(k.get('spills', 0) > 0 for k in k1) else 1)
PY
