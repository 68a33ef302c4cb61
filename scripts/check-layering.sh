#!/usr/bin/env bash
# Checks that each pipeline stage includes only the stages before it, so the
# folders stay a pipeline: a header reach-back would not show up as a link
# error (CMakeLists.txt links the stage libraries in the same order).
# Usage: scripts/check-layering.sh [REPO]; exit 1 listing each offending include.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

declare -A allowed=(
  [support]=""
  [target]="support"
  [source]="support"
  [driver]="support source"
  [collect]="support target source driver"
  [backends]="support target source driver collect"
  [isa]="support"
  [cache]="support target source driver collect"
  [model]="support target source driver collect"
  [report]="support target source driver collect model"
  [backends]="support target source driver collect"
  [pipeline]="support target driver collect model report cache source isa backends"
  [advise]="support target driver collect model report cache source pipeline isa"
  [gate]="support target driver collect model report source"
  [views]="support target driver collect model report gate source advise isa"
  [cli]="support target driver collect model report cache source pipeline advise gate views isa backends"
)

bad=0
for stage in "${!allowed[@]}"; do
  for dir in "src/$stage" "include/regscope/$stage"; do
    [ -d "$dir" ] || continue
    while IFS=: read -r file line include; do
      target=$(sed -E 's|.*"regscope/([a-z_]+)/.*|\1|' <<<"$include")
      [ "$target" = "$stage" ] && continue
      if [[ " ${allowed[$stage]} " != *" $target "* ]]; then
        echo "$file:$line: stage '$stage' includes '$target' ($include)"
        bad=1
      fi
    done < <(grep -rn '#include "regscope/' "$dir" | sed -E 's/:[[:space:]]*/:/2' || true)
    # Relative includes must stay inside the stage's own folder.
    while IFS= read -r hit; do
      echo "$hit: relative include leaves the '$stage' folder"
      bad=1
    done < <(grep -rnE '#include "\.\./\.\./|#include "\.\./[a-z_]+/' "$dir" | grep -v "src/$stage/.*#include \"\.\./[a-z_]*\.h\"" || true)
  done
done
[ "$bad" -eq 0 ] && echo "layering: every stage includes only earlier stages"
exit "$bad"
