#!/usr/bin/env bash
# Benchmark (not a test): `regscope gate` over a 20-file project, cold (empty
# result cache) and warm (nothing changed), median of RUNS warm runs.
# Usage: scripts/bench-cache.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
runs=${1:-5}
regscope=$(realpath build/regscope)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CACHE_HOME=$scratch/cache

# 20 distinct files: the LBM variants under new names.
lbm_project "$scratch/project"
files=("$scratch"/project/*.hip)

seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N); echo "$e - $s" | bc; }

cold=$(seconds "$regscope" gate --min-occupancy 1 "${files[@]}")
warm=$(for _ in $(seq "$runs"); do seconds "$regscope" gate --min-occupancy 1 "${files[@]}"; done | median)
printf 'files           %d\n' "${#files[@]}"
printf 'cold (compile)  %.3f s\n' "$cold"
printf 'warm (cached)   %.3f s (median of %d)\n' "$warm" "$runs"
printf 'speed-up        %.0fx\n' "$(echo "$cold / $warm" | bc -l)"
