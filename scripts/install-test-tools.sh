#!/usr/bin/env bash
# Tools only the test suite needs, beyond install-deps.sh: Debian's chromium
# (the HTML report tests render pages in headless Chromium), python3,
# procps and ccache (the scenario tests), and Microsoft's
# SARIF Multitool (the validator GitHub's docs point to), from npm, into
# build/tools. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
# chromium: the HTML tests; python3 (JSON checks), procps (pgrep, ps) and
# util-linux (script): the user-scenario tests in tests/scenarios/; ccache:
# the launcher scenario (wrap-launcher.sh) builds through regscope wrap -- ccache.
# slurmctld, slurmd, slurm-client and munge: the Slurm job-array scenario
# (slurm-job-array.sh starts its own daemons; the packages' services are not used).
test_packages=(chromium python3 procps util-linux ccache slurmctld slurmd slurm-client munge)
missing=()
for p in "${test_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${missing[@]}"
  echo "install-test-tools: installed ${missing[*]}"
fi
tool=build/tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
if [ -x "$tool" ]; then
  echo "install-test-tools: SARIF Multitool already installed"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q npm
fi
mkdir -p build/tools
npm install --no-audit --no-fund --silent --prefix build/tools @microsoft/sarif-multitool-linux@5.7.0
chmod u+x "$tool"  # npm skips the package's own postinstall chmod
echo "install-test-tools: SARIF Multitool installed in build/tools"
