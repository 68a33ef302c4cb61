#!/usr/bin/env bash
# Builds the reference kernels' runner for AMD with the installed hipcc, as a user without LLVM would
# (CMake only), reads its code objects with regscope, and runs it, alone and through
# `regscope kernels run` (REGSCOPE_RUNNER):
#   no GPU:      the runner and regscope say so and exit 3 (the runner is built for gfx90a);
#   an AMD GPU:  the runner is built for the GPU's own target (KFD's gfx_target_version), every case
#                it runs verifies (exit 0), and kernels run joins regscope's figures for that target.
# Exit 77 (skipped) without hipcc. Every file, hipcc's and CMake's temporary ones included, stays in
# a private scratch directory that is removed at the end (nothing in /tmp).
#   bash tests/runner_build_test.sh SOURCE_DIR REGSCOPE_BINARY
set -euo pipefail
source_dir=$1
regscope=${2:?usage: runner_build_test.sh SOURCE_DIR REGSCOPE_BINARY}
command -v hipcc >/dev/null || { echo "SKIP: hipcc is not installed"; exit 77; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/regscope-runner-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/tmp" "$scratch/cache"
# CMake's compiler checks and hipcc write their temporary directories (CMakeCXXCompilerABI-*) here.
export TMPDIR=$scratch/tmp XDG_CACHE_HOME=$scratch/cache
fail() { echo "FAIL: $*"; exit 1; }

# The target: gfx90a without a GPU; on an AMD GPU, the first KFD node's (gfx_target_version
# MMmmss: major, minor, stepping in hex: 90010 -> gfx90a, 90402 -> gfx942, 110000 -> gfx1100).
arch=gfx90a gpu=
if [ -e /dev/kfd ]; then
  gpu=amd
  for props in /sys/class/kfd/kfd/topology/nodes/*/properties; do
    v=$(awk '$1 == "gfx_target_version" {print $2}' "$props" 2>/dev/null)
    if [ -n "$v" ] && [ "$v" != 0 ]; then
      arch=$(printf 'gfx%d%d%x' $((v / 10000)) $((v / 100 % 100)) $((v % 100)))
      break
    fi
  done
fi

cmake -S "$source_dir/kernels/runner" -B "$scratch/build" -DRUNNER_GPU=hip "-DRUNNER_HIP_ARCH=$arch" \
  >"$scratch/log" 2>&1 || { cat "$scratch/log"; fail "configure"; }
cmake --build "$scratch/build" -j 2 >>"$scratch/log" 2>&1 || { tail -30 "$scratch/log"; fail "build"; }
runner=$scratch/build/regscope-runner

# regscope reads the runner's fat binary: the kernels of every family, on the target built for.
"$regscope" parse "$runner" --format json >"$scratch/parse.json" 2>"$scratch/parse.err" ||
  { cat "$scratch/parse.err"; fail "regscope parse of the runner"; }
python3 - "$scratch/parse.json" "$arch" <<'PY' || fail "regscope parse: the runner's kernels are not all there"
import json, sys
doc, arch = json.load(open(sys.argv[1])), sys.argv[2]
names = [k.get("demangled") or k["name"] for k in doc["kernels"] if k["arch"] == arch]
# the five LBM variants (one `kernel` each), bitonic, the Laplacian, the contraction, the max-reduction
lbm = [n for n in names if "kernel(double*" in n]
missing = [w for w in ("bitonic", "laplacian", "ax", "max") if not any(w in n for n in names)]
print(f"regscope parse: {len(names)} kernels on {arch}, {len(lbm)} LBM variants")
sys.exit(0 if len(lbm) == 5 and not missing else (print("missing:", missing, "names:", names) or 1))
PY

set +e
"$runner" --case bitonic --repeat 1 --json >"$scratch/out" 2>"$scratch/err"
code=$?
REGSCOPE_RUNNER=$runner "$regscope" kernels run bitonic --repeat 1 --format json >"$scratch/rs.out" 2>"$scratch/rs.err"
rs_code=$?
set -e

if [ -z "$gpu" ]; then
  [ "$code" = 3 ] || { cat "$scratch/err"; fail "the runner: expected exit 3 without a GPU, got $code"; }
  grep -q "no GPU found" "$scratch/err" || { cat "$scratch/err"; fail "the runner: no 'no GPU found' message"; }
  [ "$rs_code" = 3 ] || { cat "$scratch/rs.err"; fail "regscope kernels run: expected exit 3 without a GPU, got $rs_code"; }
  head -1 "$scratch/rs.err" | grep -q '^regscope: no GPU found' ||
    { cat "$scratch/rs.err"; fail "regscope kernels run: no 'regscope: no GPU found' line"; }
  echo "PASS: the runner builds for $arch, regscope reads it, and both report: $(head -1 "$scratch/rs.err")"
  exit 0
fi

# An AMD GPU: the cases run and verify, and regscope joins its figures for this target.
[ "$code" = 0 ] || { cat "$scratch/err"; fail "the runner on $arch: exit $code"; }
[ "$rs_code" = 0 ] || { cat "$scratch/rs.err"; fail "regscope kernels run on $arch: exit $rs_code"; }
python3 - "$scratch/out" "$scratch/rs.out" "$arch" <<'PY' || fail "a case did not verify, or regscope named another target"
import json, sys
run, rs, arch = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
cases = run["cases"]
assert cases and all(c["verified"] for c in cases), cases
assert run["arch"].split(":")[0] == arch, run["arch"]
print(f"{len(cases)} bitonic case(s) verified on {arch}; regscope kernels run: {json.dumps(rs)[:200]}")
PY
echo "PASS: the runner builds for $arch, regscope reads it, and every case verifies on the GPU"
