#!/usr/bin/env bash
# The layering checker (scripts/check-layering.sh) really fails: on a scratch
# copy of the tree, each planted offence alone makes it exit 1 naming it, and
# the untouched copy passes. Usage: tests/layering_check_test.sh REPO
set -euo pipefail
repo="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail=0

fresh() {
  rm -rf "$scratch/tree" && mkdir -p "$scratch/tree"
  cp -r "$repo/layering.txt" "$repo/CMakeLists.txt" "$repo/src" "$repo/include" "$scratch/tree/"
}
# expect_failure WHAT EXPECTED-TEXT: the checker exits 1 and says EXPECTED-TEXT.
expect_failure() {
  local out rc=0
  out=$(bash "$repo/scripts/check-layering.sh" "$scratch/tree" 2>&1) || rc=$?
  if [ "$rc" -ne 1 ] || ! grep -qF -- "$2" <<<"$out"; then
    echo "FAIL: $1: exit $rc, expected 1 and '$2'; it said:"
    echo "$out"
    fail=1
  else
    echo "ok: $1"
  fi
}

fresh
if ! bash "$repo/scripts/check-layering.sh" "$scratch/tree" >/dev/null; then
  echo "FAIL: the untouched copy does not pass"
  fail=1
fi

fresh
echo '#include <regscope/views/view.h>' >>"$scratch/tree/src/model/limiter.cpp"
expect_failure "an angle-bracket include of a later stage" "library 'model' includes 'views' (regscope/views/view.h)"

fresh
echo '#include "regscope/pipeline/analyze.h"' >>"$scratch/tree/include/regscope/collect/collect.h"
expect_failure "a quoted include of a later stage in a header" "library 'collect' includes 'pipeline'"

fresh
echo '#include "regscope/backend/backend.h"' >>"$scratch/tree/src/model/limiter.cpp"
expect_failure "a generic stage reaching the backend registry" "library 'model' includes 'backend'"

fresh
echo '#include "../../views/phrases.h"' >>"$scratch/tree/src/backends/amd/backend.cpp"
expect_failure "a relative include leaving the folder" "relative include '../../views/phrases.h' leaves the 'backends/amd' folder"

fresh
mkdir -p "$scratch/tree/src/backends/newvendor"
echo 'int x;' >"$scratch/tree/src/backends/newvendor/backend.cpp"
expect_failure "a folder layering.txt does not list" "src/backends/newvendor/: a folder layering.txt does not list"

fresh
sed -i 's/LINKS regscope_collect)/LINKS regscope_collect regscope_report)/' "$scratch/tree/CMakeLists.txt"
expect_failure "a link to a later stage in CMakeLists.txt" "regscope_model links regscope_report"

fresh
sed -i 's/^\(backend:.*\)$/\1 report/' "$scratch/tree/layering.txt"
expect_failure "a rule naming a later line" "'backend' uses 'report', which is not a line above it"

exit "$fail"
