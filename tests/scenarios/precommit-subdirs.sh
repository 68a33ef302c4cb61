#!/bin/bash
# The pre-commit scenario (baseline-subset-and-keys.sh's subsets and keys as a user meets them): a git
# repository with sub-directories (src/a/k1.hip = the seed's LBM kernel, src/b/k2.hip = a matrix
# multiplication, include/), a baseline recorded at the root, regscope's shipped hook
# (.pre-commit-hooks.yaml, Debian's pre-commit), and commits that change one file.
. "$(dirname "$0")/lib.sh"; need hipcc git pre-commit; scratch
export PRE_COMMIT_HOME=$S/.pre-commit
mkdir bin && ln -s "$R" bin/regscope && export PATH=$S/bin:$PATH       # language: system needs it on PATH
# the shipped hook, served from a tiny git repo (pre-commit clones hook repos)
mkdir hooks && cp "$SRC/.pre-commit-hooks.yaml" hooks/ &&
  ( cd hooks && git init -q && git add -A && git -c user.email=t@e -c user.name=t commit -qm hooks )
HOOKS_REV=$(git -C hooks rev-parse HEAD)
make_repo repo; cd repo
# compiler flags for every hook run: in .regscope.json (an absolute include path: relative ones are
# relative-include-paths.sh's concern)
printf '{"version": 1, "compiler_flags": ["-std=c++17", "%s"]}\n' "${REPO_FLAGS[1]}" > .regscope.json
cat > .pre-commit-config.yaml <<Y
repos:
  - repo: $S/hooks
    rev: $HOOKS_REV
    hooks:
      - id: regscope-gate
        args: [--baseline, regscope-baseline.json]
        verbose: true     # show the hook's report when it passes too
Y
rs base baseline src/a/k1.hip src/b/k2.hip -o regscope-baseline.json
n_b=$(entries regscope-baseline.json src/b/k2.hip 2>/dev/null); n_a=$(entries regscope-baseline.json src/a/k1.hip 2>/dev/null)
[ "$(rc base)" = 0 ] && [ "${n_a:-0}" -gt 0 ] && [ "${n_b:-0}" -gt 0 ] || { fail precommit-ctl "baseline at the root failed: $(seen base)"; exit 0; }
git add -A && git commit -qm "baseline and hook config" && pre-commit install > /dev/null 2>&1 || { fail precommit-ctl "pre-commit install failed"; exit 0; }
cp regscope-baseline.json baseline.before
# 1. a commit that changes only src/b/k2.hip, harmlessly: the hook passes and reports nothing removed
sed -i '1i // a comment-only change' src/b/k2.hip && git add src/b/k2.hip
git commit -m "comment in k2" > c1.log 2>&1; c1=$?
if [ $c1 = 0 ] && ! grep -qi 'removed' c1.log; then pass precommit-01 "harmless commit of src/b/k2.hip passes, nothing reported removed"
else fail precommit-01 "harmless commit of src/b/k2.hip: exit $c1, $(grep -iE 'removed|added|error' c1.log | head -2 | cut -c1-110 | tr '\n' '|')"; fi
# 2. a commit that makes src/a/k1.hip spill: refused, as a spill regression
add_spills src/a/k1.hip && git add src/a/k1.hip
git commit -m "launch bounds" > c2.log 2>&1; c2=$?
if [ $c2 != 0 ] && grep -qi 'spill' c2.log && ! grep -qiE 'added|removed' c2.log; then pass precommit-02 "spill regression in src/a/k1.hip refuses the commit ($(grep -oiE 'spill[a-z -]*: [^|]*' c2.log | head -1 | cut -c1-60))"
else fail precommit-02 "spilling commit: exit $c2, $(grep -iE 'spill|added|removed|FAIL|pass' c2.log | head -3 | cut -c1-110 | tr '\n' '|')"; fi
cmp -s regscope-baseline.json baseline.before && pass precommit-03 "the refused commit left the baseline untouched" || fail precommit-03 "the baseline changed without --update-baseline"
# 3. the user accepts the new figures for the staged file only, as the hook would run it
regscope gate src/a/k1.hip --baseline regscope-baseline.json --update-baseline > u.log 2>&1; u=$?
m_b=$(entries regscope-baseline.json src/b/k2.hip 2>/dev/null); m_a=$(entries regscope-baseline.json src/a/k1.hip 2>/dev/null)
[ $u = 0 ] && [ "$m_b" = "$n_b" ] && [ "$m_a" = "$n_a" ] && pass precommit-04 "--update-baseline for src/a/k1.hip kept src/b/k2.hip's $n_b entries" \
  || fail precommit-04 "--update-baseline for src/a/k1.hip: exit $u, src/b/k2.hip entries $n_b -> ${m_b:-?}, src/a/k1.hip $n_a -> ${m_a:-?}"
git add regscope-baseline.json src/a/k1.hip
git commit -m "accept spills" > c3.log 2>&1; c3=$?
[ $c3 = 0 ] && pass precommit-05 "after accepting, the commit goes through" || fail precommit-05 "commit after --update-baseline: exit $c3, $(grep -iE 'removed|added|spill|FAIL' c3.log | head -2 | cut -c1-110 | tr '\n' '|')"
# 4. the same hook from a sub-directory's point of view: gate run by hand from src/a against the root baseline
( cd src/a && regscope gate k1.hip --baseline ../../regscope-baseline.json > ../../s.log 2>&1; echo $? > ../../s.rc )
[ "$(cat s.rc)" = 0 ] && ! grep -qiE 'added|removed' s.log && pass precommit-06 "gate from src/a against the root baseline: unchanged, exit 0" \
  || fail precommit-06 "gate from src/a: exit $(cat s.rc), $(grep -iE 'added|removed' s.log | head -2 | cut -c1-100 | tr '\n' '|')"
