# Shared by the benchmark scripts (sourced, not run; from the repository root).

# The median of the numbers on stdin, one a line.
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# lbm_project DIR [EXT]: 20 distinct sources in DIR (the five LBM variants,
# four times, each kernel renamed kernel_N), named kN.EXT (default hip).
lbm_project() {
  local dir=$1 ext=${2:-hip} i=0 round src
  mkdir -p "$dir"
  for round in 1 2 3 4; do
    for src in kernels/lbm/*.hip; do
      i=$((i + 1))
      sed "s/__global__ void kernel(/__global__ void kernel_$i(/" "$src" >"$dir/k$i.$ext"
    done
  done
}
