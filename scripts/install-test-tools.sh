#!/usr/bin/env bash
# Tools only the test suite needs, beyond install-deps.sh: Debian's chromium
# (the HTML report tests render pages in headless Chromium), and Microsoft's
# SARIF Multitool (the validator GitHub's docs point to), from npm, into
# build/tools. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
if ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed"; then
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q chromium
  echo "install-test-tools: chromium installed"
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
