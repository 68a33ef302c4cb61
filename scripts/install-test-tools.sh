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
# The MCP clients tests/mcp/mcp-clients.mjs drives regscope mcp with (ctest Mcp.RealClients):
# the official TypeScript SDK and the MCP Inspector, pinned; both run on Debian 12's
# nodejs 18 (Inspector 0.16 and later need node 22).
mcp_packages=(@modelcontextprotocol/sdk@1.17.4 @modelcontextprotocol/inspector@0.14.3)
mcp_installed() {
  grep -qs '"version": "1.17.4"' build/tools/node_modules/@modelcontextprotocol/sdk/package.json &&
    grep -qs '"version": "0.14.3"' build/tools/node_modules/@modelcontextprotocol/inspector/package.json
}
if [ -x "$tool" ] && mcp_installed; then
  echo "install-test-tools: SARIF Multitool and MCP clients already installed"
  exit 0
fi
if ! command -v node >/dev/null 2>&1; then
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q nodejs
fi
if ! command -v npm >/dev/null 2>&1; then
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q npm
fi
mkdir -p build/tools
npm install --no-audit --no-fund --silent --save-exact --prefix build/tools @microsoft/sarif-multitool-linux@5.7.0 \
  "${mcp_packages[@]}"
chmod u+x "$tool"  # npm skips the package's own postinstall chmod
echo "install-test-tools: SARIF Multitool and MCP clients (${mcp_packages[*]}) installed in build/tools"
