#!/usr/bin/env bash
# regscope's SARIF (analyze and gate) through Microsoft's SARIF Multitool with
# the SARIF and GitHub rule sets, as GitHub code scanning would take it.
# Exit 77 (ctest: skipped) without the validator or hipcc.
set -euo pipefail
source_dir=$1
regscope=$2
tool=$3
[ -x "$tool" ] || { echo "SKIP: SARIF Multitool not installed (scripts/install-test-tools.sh)"; exit 77; }
command -v hipcc >/dev/null || { echo "SKIP: hipcc is not installed"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Every tool's temporary files (hipcc's, the validator's) stay in the scratch: nothing left in /tmp.
mkdir -p "$scratch/tmp"
export TMPDIR=$scratch/tmp
cd "$scratch"
export XDG_CACHE_HOME=$scratch/cache  # never the user's cache
cp "$source_dir/kernels/lbm/lbm.hip" lbm.hip
sed 's/^__global__ void kernel(/__global__ void __launch_bounds__(256, 8) kernel(/' lbm.hip > spill.hip
"$regscope" analyze lbm.hip spill.hip --format sarif -o analyze.sarif
set +e
"$regscope" gate lbm.hip spill.hip --min-occupancy 5 --max-spills 0 --format sarif -o gate.sarif
[ $? -eq 1 ] || { echo "FAIL: the gate should fail on these kernels"; exit 1; }
set -e
grep -q '"ruleId": "RS101"' gate.sarif && grep -q '"ruleId": "RS102"' gate.sarif ||
  { echo "FAIL: gate SARIF lacks the min-occupancy and max-spills results"; exit 1; }
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1
status=0
for f in analyze.sarif gate.sarif; do
  "$tool" validate --rule-kind "Sarif;Gh" --output "$f.validation" "$f" > "$f.log" 2>&1 ||
    { cat "$f.log"; echo "FAIL: the validator could not run on $f"; exit 1; }
  # SARIF2005 asks for an informationUri: regscope has no public address to give.
  problems=$(grep -E ": (error|warning) (SARIF|GH)[0-9]+" "$f.log" | grep -v "SARIF2005" || true)
  if [ -n "$problems" ]; then echo "FAIL: $f:"; echo "$problems"; status=1; else echo "PASS: $f is valid SARIF for GitHub"; fi
done
exit $status
