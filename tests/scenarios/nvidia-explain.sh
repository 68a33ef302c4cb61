# NVIDIA explain: `explain --cuda-arch` compiles each arch's cubin with -lineinfo and joins
# `nvdisasm -c -plr` with `nvdisasm -c -gi` of it. Where nvdisasm is installed (the GPU machine: CUDA's
# full toolkit) the checks run on the real tool; on a machine with nvcc only, nvexplain-01 runs the same pipeline
# with a stand-in nvdisasm that prints the output recorded on the GPU machine for the same source and nvcc
# version (fixtures/nvdisasm-13.0), so the wiring (cubin kept, both listings joined, kernels matched by
# name, the views) is checked here too.
. "$(dirname "$0")/lib.sh"
need "$NVCC"
scratch
SHIM=(-x cu -I "$SRC/kernels/common/cuda_shim")
NVDISASM=$(command -v nvdisasm 2>/dev/null || { [ -x "$(dirname "$NVCC")/nvdisasm" ] && echo "$(dirname "$NVCC")/nvdisasm"; })

# the line of FILE holding TEXT (the seed's pow line of LBM)
line_of() { grep -n -F "$2" "$1" | head -1 | cut -d: -f1; }
POW=$(line_of "$SRC/kernels/lbm/lbm.hip" 'pow(current_phi')

# check_explained ID PREFIX: every kernel was read (isa present), its peak live registers <= the
# registers ptxas allocated, and the LBM kernel's pow line is among its 5 hottest lines (when it is LBM).
check_explained() {
  local id=$1 p=$2 verdict
  verdict=$(jget "$p.out" "(
[(k['demangled'][:30], 'no isa: ' + ' '.join(k.get('notes', []))) for k in d['kernels'] if 'isa' not in k] or
[(k['demangled'][:30], k['isa']['max_live']['vgprs'], k['registers']) for k in d['kernels']
 if not 0 < k['isa']['max_live']['vgprs'] <= k['registers']] or 'ok')" 2>&1)
  if [ "$(rc "$p")" = 0 ] && [ "$verdict" = ok ]; then
    pass "$id" "$(jget "$p.out" "', '.join('%s %d live <= %d' % (k['demangled'].split('(')[0], k['isa']['max_live']['vgprs'], k['registers']) for k in d['kernels'])")"
  else
    fail "$id" "$(seen "$p") $verdict"
  fi
}
check_pow_hot() {
  local id=$1 p=$2 hot
  hot=$(jget "$p.out" "[l['line'] for l in d['kernels'][0]['isa']['hottest'][:5]]")
  echo "$hot" | grep -qw "$POW" && pass "$id" "LBM's pow line $POW is among the 5 hottest: $hot" ||
    fail "$id" "LBM's pow line $POW is not among the 5 hottest: $hot"
}

# nvexplain-01: the wiring, with a stand-in nvdisasm (recorded output) where no real one is installed.
if [ -n "$NVDISASM" ]; then
  skip nvexplain-01 "a real nvdisasm is installed ($NVDISASM): nvexplain-02 and nvexplain-03 check it"
elif ! "$NVCC" --version | grep -q 'release 13\.0'; then
  skip nvexplain-01 "the recorded nvdisasm output is for nvcc 13.0's cubins; this nvcc is $("$NVCC" --version | tail -1)"
else
  mkdir fake
  cat > fake/nvdisasm <<EOF
#!/bin/sh
# Stand-in for nvdisasm (a test double): prints what the real one printed on the GPU machine for the
# cubin of kernels/lbm/lbm.hip at sm_90 (fixtures/nvdisasm-13.0/README.md).
case "\$2" in
  -plr) cat "$SRC/fixtures/nvdisasm-13.0/lbm-sm_90.plr.txt" ;;
  -gi) cat "$SRC/fixtures/nvdisasm-13.0/lbm-sm_90.gi.txt" ;;
  *) echo "fake nvdisasm: unexpected \$*" >&2; exit 1 ;;
esac
EOF
  chmod +x fake/nvdisasm
  PATH=$S/fake:$PATH rs a explain "$SRC/kernels/lbm/lbm.hip" --cuda-arch sm_90 --format json -- "${SHIM[@]}"
  check_explained nvexplain-01a a
  [ "$(rc a)" = 0 ] && check_pow_hot nvexplain-01b a
  PATH=$S/fake:$PATH rs at explain "$SRC/kernels/lbm/lbm.hip" --cuda-arch sm_90 -- "${SHIM[@]}"
  grep -q ' REG  UREG ' at.out && ! grep -q 'AGPR' at.out &&
    pass nvexplain-01c "the text names NVIDIA's registers (REG, UREG; no AGPR column)" ||
    fail nvexplain-01c "text columns: $(grep -m1 'LINE' at.out)"
fi

# nvexplain-02, nvexplain-03: the real nvdisasm on every reference kernel at sm_90.
if [ -n "$NVDISASM" ]; then
  for f in lbm/lbm lbm/lbm_nopow lbm/lbm_rearrange lbm/lbm_restrict_g14 lbm/lbm_restrict_g7 bitonic/bitonic \
           laplacian/laplacian unroll/ax wideload/wideload; do
    n=$(basename "$f")
    rs "e-$n" explain "$SRC/kernels/$f.hip" --cuda-arch sm_90 --format json -- "${SHIM[@]}"
    check_explained "nvexplain-02-$n" "e-$n"
  done
  check_pow_hot nvexplain-03 e-lbm
  rs et explain "$SRC/kernels/lbm/lbm.hip" --cuda-arch sm_90 -- "${SHIM[@]}"
  [ "$(rc et)" = 0 ] && grep -q '^peak: ' et.out && pass nvexplain-03b "the text shows the peak: $(grep -m1 '^peak: ' et.out | cut -c1-120)" ||
    fail nvexplain-03b "$(seen et)"
else
  skip nvexplain-02 "nvdisasm is not installed here (CUDA's full toolkit; the GPU machine has it: docs/h100/)"
fi

# nvexplain-04: -lineinfo (what explain adds for nvcc) changes no figure ptxas reports.
for f in lbm/lbm unroll/ax; do
  n=$(basename "$f")
  rs "p-$n" analyze "$SRC/kernels/$f.hip" --cuda-arch sm_90 --no-cache --format json -- "${SHIM[@]}"
  rs "l-$n" analyze "$SRC/kernels/$f.hip" --cuda-arch sm_90 --no-cache --format json -- "${SHIM[@]}" -lineinfo
  figures="[(k['name'], k['registers'], k['spill_store_bytes'], k['spill_load_bytes'], k['stack_bytes'], k['shared_bytes'], k['barriers']) for k in d['kernels']]"
  a=$(jget "p-$n.out" "$figures" 2>&1); b=$(jget "l-$n.out" "$figures" 2>&1)
  [ "$(rc "p-$n")" = 0 ] && [ "$a" = "$b" ] && pass "nvexplain-04-$n" "same figures with -lineinfo: $(echo "$a" | cut -c1-100)" ||
    fail "nvexplain-04-$n" "without: $a; with -lineinfo: $b"
done
