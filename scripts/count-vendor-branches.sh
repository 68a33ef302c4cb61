#!/usr/bin/env bash
# Lists the files outside the backends (src/backends/, include/regscope/backends/)
# and the target tables (src/target/, include/regscope/target/) that branch on a
# vendor: a Vendor:: compare or case, the --cuda-arch list standing for NVIDIA,
# ocloc's inputs standing for Intel, or a get/holds_alternative/get_if on one
# vendor's model. Prints them and their count; fails when the count is above
# LIMIT (docs/design.md: a vendor is one place to read and change).
# Usage: scripts/count-vendor-branches.sh [LIMIT] [REPO]
set -euo pipefail
limit="${1:-}"
cd "${2:-$(dirname "$0")/..}"

pattern='Vendor::(Amd|Nvidia|Intel)|cuda_archs|isOclocInput|std::(get|holds_alternative|get_if)<(Amd|Cuda|Intel)[A-Za-z]*>'
# KernelReport's amd()/cuda()/intel(): a get_if on one vendor's model.
pattern+='|(->|\.)(amd|cuda|intel)\(\)'

files=$(grep -rlE "$pattern" src include 2>/dev/null |
  grep -vE '^(src/backends|include/regscope/backends|src/target|include/regscope/target)/' | sort || true)
count=0
[ -n "$files" ] && count=$(wc -l <<<"$files")
if [ -n "$files" ]; then
  while IFS= read -r f; do
    echo "$f: $(grep -cE "$pattern" "$f") site(s)"
  done <<<"$files"
fi
echo "vendor branches outside the backends: $count file(s)"
if [ -n "$limit" ] && [ "$count" -gt "$limit" ]; then
  echo "more than the limit of $limit: move the vendor's part into src/backends/<vendor>/ behind the Backend interface" >&2
  exit 1
fi
