#!/usr/bin/env bash
# Fails when a C++ file of regscope's own (src/, include/, tests/, tools/) differs from what
# clang-format-15 makes of it under the repository's .clang-format. kernels/ and fixtures/ are
# left as written (their .clang-format disables formatting): their line numbers are the ones
# the compilers' remarks, the committed outputs and the docs name.
#   scripts/check-format.sh         list the files that differ, exit 1 if any
#   scripts/check-format.sh --fix   format them in place
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(command -v clang-format-15 || true)
if [ -z "$cf" ]; then
  echo "check-format: clang-format-15 is not installed (scripts/install-deps.sh installs it)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files -- 'src/*.cpp' 'src/*.h' 'include/*.h' 'tests/*.cpp' 'tests/*.h' 'tools/*.cpp' 'tools/*.h')
if [ "${1:-}" = --fix ]; then
  "$cf" -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$cf" "$f" | cmp -s - "$f" || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  printf 'check-format: %d of %d files differ from clang-format-15 (scripts/check-format.sh --fix):\n' "${#bad[@]}" "${#files[@]}" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
