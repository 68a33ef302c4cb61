#!/usr/bin/env bash
# How long regscope takes to end after SIGTERM in its long loops (README: "within a second";
# docs/reliability.md, "A signal ends the run"). Not a test: it prints the latency, so a change
# can be measured before and after on the same machine.
#   merge: shards of KERNELS kernels (scripts/bench-merge.sh's synthetic shards, about 40 MB for
#   100000), SIGTERM after each of DELAYS seconds, the time from the signal to the exit.
# Usage: scripts/bench-signals.sh BINARY [KERNELS] [DELAYS...]   (default 100000; 0.3 0.8 1.5 2.5)
set -euo pipefail
R=$(realpath "$1"); shift
KERNELS=${1:-100000}; [ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- 0.3 0.8 1.5 2.5
SRC=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/regscope-bench-signals.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir "$W/shards"
NO_TIMING=1 KEEP="$W/shards" bash "$SRC/scripts/bench-merge.sh" "$R" "$KERNELS" > "$W/bench.log"
du -sh "$W/shards" | awk '{print "merge input: " $1}'
for delay in "$@"; do
  "$R" merge --format json -o "$W/merged.json" "$W"/shards/shard-*.json 2> "$W/err" &
  pid=$!
  sleep "$delay"
  sent=$(date +%s.%N)
  if kill -TERM "$pid" 2> /dev/null; then
    rc=0; wait "$pid" || rc=$?
    ended=$(date +%s.%N)
    printf 'SIGTERM at %ss: exit %d after %.3f s\n' "$delay" "$rc" "$(echo "$ended - $sent" | bc)"
  else
    wait "$pid" || true
    echo "SIGTERM at ${delay}s: the merge had already ended"
  fi
  rm -f "$W/merged.json"
done
