#!/bin/bash
# Baselines in a git repository with sub-directories (src/a/k1.hip = the seed's LBM kernel,
# src/b/k2.hip = a matrix multiplication including "matmul.hpp" from include/).
# subsets (baseline-06, -10, -11): --update-baseline with a subset of files keeps every other file's
#    entries; a gate over a subset does not call the other files' kernels "removed".
# keys (baseline-01 to -05, -07 to -09): baseline keys are paths relative to the repository root,
#    whatever the cwd and however the file is named; -p and file arguments agree; a real spill
#    regression is reported as one.
. "$(dirname "$0")/lib.sh"; need hipcc git; scratch
make_repo repo; cd repo; ROOT=$PWD
rs base baseline src/a/k1.hip src/b/k2.hip -o regscope-baseline.json -- "${REPO_FLAGS[@]}"
n_b=$(entries regscope-baseline.json src/b/k2.hip 2>/dev/null); n_a=$(entries regscope-baseline.json src/a/k1.hip 2>/dev/null)
if [ "$(rc base)" != 0 ] || [ "${n_b:-0}" = 0 ] || [ "${n_a:-0}" = 0 ]; then
  fail baseline-ctl "could not record the baseline: $(seen base)"; exit 1; fi
cp regscope-baseline.json before.json

# --- keys: unchanged sources, named differently: nothing added or removed, exit 0
check_same() { # ID WHAT (run in the right cwd by the caller; r.* are the results)
  if grep -qiE 'added|removed' r.out r.err; then fail "$1" "$2: $(grep -iE 'added|removed' r.out r.err | head -2 | tr '\n' '|')"
  elif [ "$(rc r)" != 0 ]; then fail "$1" "$2: $(seen r)"; else pass "$1" "$2"; fi
}
( cd src/a && rs r gate k1.hip --baseline ../../regscope-baseline.json -- "${REPO_FLAGS[@]}"; check_same baseline-01 'unchanged file gated from src/a (k1.hip)' )
rs r gate "$ROOT/src/a/k1.hip" --baseline regscope-baseline.json -- "${REPO_FLAGS[@]}"; check_same baseline-02 'unchanged file gated by absolute path'
rs r gate ./src/a/../a/k1.hip --baseline regscope-baseline.json -- "${REPO_FLAGS[@]}"; check_same baseline-03 'unchanged file gated as ./src/a/../a/k1.hip'
# a compile database (build/, as CMake writes it: absolute file, directory build/)
mkdir -p build; python3 - "$ROOT" "${REPO_FLAGS[@]}" > build/compile_commands.json <<'PY'
import json, sys
root, flags = sys.argv[1], sys.argv[2:]
print(json.dumps([{"directory": root + "/build", "file": root + "/src/" + f,
                   "arguments": ["/usr/bin/hipcc", *flags, "--offload-arch=gfx90a", "-c", root + "/src/" + f, "-o", f + ".o"]}
                  for f in ("a/k1.hip", "b/k2.hip")], indent=1))
PY
rs r gate -p build --baseline regscope-baseline.json; check_same baseline-04 'unchanged project gated with -p build (baseline from file arguments)'
( cd src && rs r baseline a/k1.hip b/k2.hip -o ../sub-baseline.json -- "${REPO_FLAGS[@]}" )
rs r gate src/a/k1.hip src/b/k2.hip --baseline sub-baseline.json -- "${REPO_FLAGS[@]}"; check_same baseline-05 'baseline recorded from src/, gated from the root'

# --- subsets: the subset gate (what the pre-commit hook runs when only src/a/k1.hip is staged)
rs g gate src/a/k1.hip --baseline regscope-baseline.json -- "${REPO_FLAGS[@]}"
if grep -qi 'removed' g.out g.err; then fail baseline-06 "gate over src/a/k1.hip lists other files' kernels as removed: $(grep -i removed g.out g.err | head -2 | tr '\n' '|')"
elif [ "$(rc g)" != 0 ]; then fail baseline-06 "gate over an unchanged subset: $(seen g)"
else pass baseline-06 "gate over a subset reports nothing removed"; fi

# --- keys: a real spill regression (0 -> N), gated from a sub-directory, by absolute path and with -p:
# reported as a regression (exit 1), not as added + removed kernels.
add_spills src/a/k1.hip || { fail baseline-07-ctl "could not add __launch_bounds__ to LBM"; exit 1; }
regress() { # ID WHAT
  if [ "$(rc r)" = 1 ] && grep -qi 'spill' r.out && ! grep -qiE 'added|removed' r.out r.err; then pass "$1" "$2"
  else fail "$1" "$2: rc=$(rc r), $(grep -iE 'spill|added|removed|FAIL|pass' r.out r.err | head -3 | cut -c1-120 | tr '\n' '|')"; fi
}
# (every file of the baseline is gated, so that the subset behaviour does not enter here)
( cd src/a && rs r gate k1.hip ../b/k2.hip --baseline ../../regscope-baseline.json -- "${REPO_FLAGS[@]}"; regress baseline-07 'spill regression (0 -> N) reported when gated from src/a' )
rs r gate "$ROOT/src/a/k1.hip" "$ROOT/src/b/k2.hip" --baseline regscope-baseline.json -- "${REPO_FLAGS[@]}"; regress baseline-08 'spill regression reported when gated by absolute paths'
rs r gate -p build --baseline regscope-baseline.json; regress baseline-09 'spill regression reported with -p build'

# --- subsets: accept the change to k1 only
rs u gate src/a/k1.hip --baseline regscope-baseline.json --update-baseline -- "${REPO_FLAGS[@]}"
m_b=$(entries regscope-baseline.json src/b/k2.hip 2>/dev/null); m_a=$(entries regscope-baseline.json src/a/k1.hip 2>/dev/null)
if [ "$(rc u)" != 0 ]; then fail baseline-10 "--update-baseline over src/a/k1.hip: $(seen u)"
elif [ "$m_b" != "$n_b" ]; then fail baseline-10 "--update-baseline over src/a/k1.hip left ${m_b:-?} of src/b/k2.hip's $n_b entries (exit $(rc u))"
elif [ "$m_a" != "$n_a" ]; then fail baseline-10 "src/a/k1.hip's entries went from $n_a to ${m_a:-?}"
else pass baseline-10 "--update-baseline over one file keeps the other file's $n_b entries"; fi
# the kept entries are unchanged, the updated one carries the new spills
python3 - before.json regscope-baseline.json <<'PY' && pass baseline-11 "other file's entries byte-for-byte the same, k1's entry updated" || fail baseline-11 "entries changed that were not asked to change (or k1 not updated)"
import json, sys
b = [k for k in json.load(open(sys.argv[1]))['kernels']]
a = [k for k in json.load(open(sys.argv[2]))['kernels']]
other = lambda ks: sorted(json.dumps(k, sort_keys=True) for k in ks if 'src/b/k2.hip' in k['file'])
k1 = [k for k in a if 'src/a/k1.hip' in k['file']]
sys.exit(0 if other(a) == other(b) and k1 and all(k.get('spills', 0) > 0 for k in k1) else 1)
PY
