#!/bin/bash
# What regscope trusts: configs above the repository, the result cache, the runner directory, whose
# config is obeyed, flags that load code, names escaped in every format. Each case's reproducer,
# built by the script, run through the regscope binary under test.
. "$(dirname "$0")/lib.sh"; need hipcc git; scratch
# ---- trust-01-config-trust
( mkdir -p trust-01 && cd trust-01 || exit 1
# A .regscope.json above the repository root (a shared parent such as /tmp) must not be
# obeyed; one not owned by the user or root, or writable by others, is ignored with a warning; the config
# used is named in the JSON (and in verbose output).
mkdir -p shared/repo
printf '{"version": 1, "compiler_flags": ["-DPLANTED_BY_SOMEONE_ELSE"]}\n' > shared/.regscope.json
cd shared/repo && git init -q .
printf '#include <hip/hip_runtime.h>\n#ifdef PLANTED_BY_SOMEONE_ELSE\n#error the planted config was obeyed\n#endif\n__global__ void k(int *p) { p[0] = 1; }\n' > k.hip
rs x gate k.hip --max-spills 0
if [ "$(rc x)" = 0 ]; then pass trust-01a "a .regscope.json above the git top level is not obeyed"
else fail trust-01a "a .regscope.json in the repository's parent was obeyed: $(grep -o 'error: the planted config was obeyed' x.err | head -1) (exit $(rc x))"; fi
# inside the repository, but writable by everyone
printf '{"version": 1, "compiler_flags": ["-DPLANTED_BY_SOMEONE_ELSE"]}\n' > .regscope.json; chmod 666 .regscope.json
rs x gate k.hip --max-spills 0
if [ "$(rc x)" = 0 ] && grep -qi 'warning' x.err && grep -q 'regscope.json' x.err; then pass trust-01b "a world-writable .regscope.json is ignored with a warning"
else fail trust-01b "world-writable .regscope.json: exit $(rc x), $(grep -c -i warning x.err) warnings $(first_err x | cut -c1-80)"; fi
# a normal config: named in the JSON report
printf '{"version": 1, "defaults": {"max_spills": 0}}\n' > .regscope.json; chmod 644 .regscope.json
rs x gate k.hip --format json
if grep -q 'regscope.json' x.out; then pass trust-01c "the JSON report names the config used"
else fail trust-01c "the JSON report does not say which config was used (exit $(rc x))"; fi
)
# ---- trust-02-cache-trust
( mkdir -p trust-02 && cd trust-02 || exit 1
export XDG_CACHE_HOME=$PWD/.cache   # this check poisons the cache: its own
# The cache directory is 0700 and entries 0600 regardless of umask; a lookup rejects
# entries that store would never write (no dependencies, ...), so a poisoned entry cannot pass a gate.
lbm_src > k.hip
( umask 022; rs x analyze k.hip )
d=$XDG_CACHE_HOME/regscope; e=$(find "$d" -type f -name '*.json' | head -1)
dm=$(stat -c %a "$d" 2>/dev/null); em=$(stat -c %a "$e" 2>/dev/null)
[ "$dm" = 700 ] && [ "$em" = 600 ] && pass trust-02a "cache dir 0700, entries 0600 under umask 022" || fail trust-02a "under umask 022: cache dir $dm, entry $em"
# poison: the entry claims no dependencies, so it would hit whatever the source becomes
python3 - "$e" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d['dependencies'] = []; json.dump(d, open(sys.argv[1], 'w'))
PY
add_spills k.hip
rs x gate k.hip --max-spills 0
[ "$(rc x)" = 1 ] && pass trust-02b "an entry with no dependencies is a miss: the spilling kernel fails the gate" \
  || fail trust-02b "poisoned entry (dependencies: []) hit after the source changed: gate --max-spills 0 exits $(rc x) on a spilling kernel"
# an unreadable/malformed entry is a miss, not an error
for f in $(find "$d" -type f -name '*.json'); do echo '{"format": ' > "$f"; done
rs x analyze k.hip
[ "$(rc x)" = 0 ] && pass trust-02c "a malformed cache entry is a miss" || fail trust-02c "malformed cache entry: $(seen x)"
)
# ---- trust-03-runner-dir
( mkdir -p trust-03 && cd trust-03 || exit 1
# With neither XDG_CACHE_HOME nor HOME set, `kernels run` built in the predictable
# $TMPDIR/regscope/runner-*. Needs a GPU to reach the build step.
if [ ! -e /dev/kfd ] && [ ! -e /dev/nvidiactl ]; then skip trust-03 "no GPU here: kernels run exits 3 before it builds the runner"; exit 0; fi
mkdir -p t/regscope/runner-hip t/regscope/runner-cuda; echo planted > t/regscope/runner-hip/PLANTED; echo planted > t/regscope/runner-cuda/PLANTED
env -u HOME -u XDG_CACHE_HOME TMPDIR=$PWD/t timeout 600 "$R" kernels run lbm > x.out 2> x.err; echo $? > x.rc
if [ -n "$(find t/regscope -newer t/regscope/runner-hip/PLANTED -type f 2>/dev/null | head -1)" ]; then fail trust-03 "kernels run built in the predictable $PWD/t/regscope/runner-*"
else pass trust-03 "kernels run did not use \$TMPDIR/regscope/runner-* (exit $(rc x))"; fi
)
# ---- trust-04-config-link
( mkdir -p trust-04 && cd trust-04 || exit 1
# A config is obeyed only when it, and the link that leads to it, belongs to the user
# (as git's safe.directory judges). Another user's .regscope.json link to the user's own config made
# regscope resolve its "-include planted.h" in that user's directory and compile it.
mkdir -p shared repo && (cd repo && git init -q .)
printf '{"version": 1, "compiler_flags": ["-include", "planted.h"]}\n' > shared/cfg.json
small_src > repo/k.hip
printf '#error the planted header was compiled\n' > repo/planted.h
ln -s ../shared/cfg.json repo/.regscope.json
if ! chown -h 4242:4242 repo/.regscope.json repo/planted.h 2>/dev/null; then
  skip trust-04a "cannot chown a link to another user here (not root): the case needs a file another user owns"
else
  (cd repo && rs ../x analyze k.hip --no-cache)
  if [ "$(rc x)" = 0 ] && grep -q 'warning: ignoring .*regscope.json: it is a symbolic link owned by another user (uid 4242)' x.err
  then pass trust-04a "another user's .regscope.json link is ignored with a warning (nothing planted compiled)"
  else fail trust-04a "another user's .regscope.json link: $(seen x)"; fi
fi
# Flags that load code into the compiler, from a config: refused unless the command line allows them.
mkdir -p p && (cd p && git init -q . && small_src > k.hip)
printf '{"version": 1, "compiler_flags": ["-O2", "-Xclang", "-load", "-Xclang", "/nonexistent/evil.so"]}\n' > p/.regscope.json
(cd p && rs ../y analyze k.hip --no-cache)
if clean_error y && grep -q "regscope.json: compiler_flags: '-Xclang -load -Xclang /nonexistent/evil.so' loads a plugin into the compiler; .*--allow-config-plugins" y.err \
   && ! grep -q 'unable to load plugin' y.err
then pass trust-04b "a config's -Xclang -load is refused before any compile, naming the file and --allow-config-plugins"
else fail trust-04b "a config's -Xclang -load: $(seen y)"; fi
(cd p && rs ../z analyze k.hip --no-cache --allow-config-plugins)
if [ "$(rc z)" = 2 ] && grep -q "unable to load plugin '/nonexistent/evil.so'" z.err
then pass trust-04c "--allow-config-plugins passes the config's plugin to the compiler"
else fail trust-04c "--allow-config-plugins: $(seen z)"; fi
mkdir -p theirs
printf '{"version": 1, "compiler_flags": ["--hip-device-lib-path=%s"]}\n' "$PWD/theirs" > p/.regscope.json
if ! chown 4242:4242 theirs 2>/dev/null; then
  skip trust-04d "cannot chown a directory to another user here (not root)"
else
  (cd p && rs ../w analyze k.hip --no-cache)
  if clean_error w && grep -q "'--hip-device-lib-path=$PWD/theirs' lets the compiler run programs or link libraries from $PWD/theirs, and $PWD/theirs belongs to another user (uid 4242)" w.err
  then pass trust-04d "a config's --hip-device-lib-path= to another user's directory is refused"
  else fail trust-04d "--hip-device-lib-path= to another user's directory: $(seen w)"; fi
fi
)
# ---- trust-05-escape
( mkdir -p trust-05 && cd trust-05 || exit 1
# A kernel name from the input (here lbm-gfx90a.s from hipcc 5.2.3 with its metadata
# name edited to hold ESC ] 0;title BEL, CR, U+202E and "\n::error::x") reaches no output raw: no control
# byte, no bidirectional override, and no line a CI runner reads as a workflow command.
python3 - "$SRC/fixtures/hipcc-5.2.3/lbm-gfx90a.s" <<'PY'
import sys
s = open(sys.argv[1]).read()
name = '_Z6kernelPdS_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_iiiiiiiddddddddddddddd'
s = s.replace('    .name:           ' + name, '    .name:           "evil\\e]0;pwned\\a\\r\\u202e\\n::error::x"')
open('evil.s', 'w').write(s)
PY
bad=""
for f in text csv markdown junit github; do
  rs "x-$f" parse evil.s --format "$f"
  raw=$(cat "x-$f.out" "x-$f.err" | LC_ALL=C grep -c -P '[\x00-\x08\x0b-\x1f\x7f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]')
  # regscope's own annotations (a kernel whose metadata lost its name cannot be judged) start with
  # "::error file=...,title=regscope RULE::"; any other line starting with "::" came from the data.
  cmd=$(cat "x-$f.out" "x-$f.err" | grep -v -E '^::(error|warning|notice) file=[^:,]*,title=regscope [a-z-]+::' | grep -c -E '^[[:space:]]*::')
  [ "$(rc "x-$f")" = 0 ] && [ "$raw" = 0 ] && [ "$cmd" = 0 ] || bad="$bad $f(rc $(rc "x-$f"), $raw raw, $cmd ::lines)"
done
[ -z "$bad" ] && pass trust-05a "a hostile kernel name is escaped in text, csv, markdown, junit, github" \
  || fail trust-05a "hostile kernel name reached the output raw:$bad"
grep -q 'evil\\x1b\]0;pwned\\x07\\r\\u{202E}\\n::error::x' x-text.out && pass trust-05b "the terminal table shows the name's controls as \\x1b, \\r, \\u{202E}, \\n" \
  || fail trust-05b "the text table does not show the escaped name: $(grep -a evil x-text.out | head -1 | cat -A | cut -c1-100)"
# The same through a real compile: a kernel whose symbol (an asm label) holds ESC ] 0;title BEL, U+202E
# and "::error::x", with scratch, so that the gate's --max-scratch 0 reports it in every format.
printf '#include <hip/hip_runtime.h>\nextern "C" __global__ void k(int *p) __asm__("evil\\x1b]0;pwned\\x07\\xe2\\x80\\xae::error::x");\nextern "C" __global__ void k(int *p) {\n  int a[256];\n  for (int i = 0; i < 256; ++i) a[i] = p[i];\n  p[threadIdx.x] = a[p[threadIdx.x] & 255];\n}\n' > label.hip
bad=""
for f in text csv markdown junit github; do
  rs "g-$f" gate label.hip --max-scratch 0 --format "$f"
  raw=$(cat "g-$f.out" "g-$f.err" | LC_ALL=C grep -c -P '[\x00-\x08\x0b-\x1f\x7f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]')
  cmd=$(cat "g-$f.out" "g-$f.err" | grep -v '^::error file=[^:]*,title=regscope max-scratch::' | grep -c -E '^[[:space:]]*::')
  [ "$(rc "g-$f")" = 1 ] && [ "$raw" = 0 ] && [ "$cmd" = 0 ] && grep -q 'pwned' "g-$f.out" || bad="$bad $f(rc $(rc "g-$f"), $raw raw, $cmd ::lines)"
done
[ -z "$bad" ] && pass trust-05d "a compiled kernel's hostile symbol is escaped in the gate's text, csv, markdown, junit, github" \
  || fail trust-05d "a compiled kernel's hostile symbol reached the gate's output raw:$bad"
# An error names the file: a .s whose metadata says wave16 on gfx90a.
sed 's/\.wavefront_size: 64/.wavefront_size: 16/' "$SRC/fixtures/hipcc-5.2.3/lbm-gfx90a.s" > w16.s
rs y parse w16.s
if clean_error y && grep -q '^regscope: error: w16.s: kernel kernel(double\*.*\[gfx90a\]: gfx90a has no wave16 (it runs wave64)$' y.err
then pass trust-05c "an impossible wave size names the file and the kernel"
else fail trust-05c "wave16 on gfx90a: $(seen y)"; fi
)
