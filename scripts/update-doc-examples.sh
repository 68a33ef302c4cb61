#!/bin/bash
# Rewrites the output lines of every ```console example in README.md and docs/*.md from the current
# binary (scripts/doc-examples.py --update), e.g. after a change to the table's layout; then review
# the diff (git diff README.md docs/) before committing: every changed figure is a changed promise.
#   scripts/update-doc-examples.sh [--build DIR] [FILE.md ...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
if [ "${1:-}" = --build ]; then build=$2; shift 2; fi
exec python3 "$root/scripts/doc-examples.py" --update --root "$root" --binary "$build/regscope" "$@"
