#!/usr/bin/env bash
# Packs the fuzz build (scripts/build-fuzz.sh) for a run on another x86-64 Linux
# machine with more cores and no LLVM 15: the targets, stripped, and the shared
# libraries they need that such a machine may lack (LLVM 15, clang-cpp 15, z3,
# libedit), xz-compressed, in DIR (default .fuzzpack), with DIR/run.sh:
#
#   scripts/fuzz-pack.sh [--build DIR] [--out DIR] [--no-clang] [TARGET...]
#   (copy the repository and DIR to the other machine, then there:)
#   bash DIR/run.sh --seconds 600 --jobs 16 [--keep DIR]   # scripts/fuzz.sh's options; every packed target
#
# --no-clang leaves out libclang-cpp (11 MB compressed) and the targets that need
# it. Python 3's lzma module unpacks the files there (no xz binary needed).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build="$repo/build-fuzz"
out="$repo/.fuzzpack"
clang=1
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-clang) clang=0; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "fuzz-pack.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
mapfile -t all < <(grep -E '^[a-z_]+ ' "$repo/tests/fuzz/targets.txt" | cut -d' ' -f1)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
mkdir -p "$out/lib" "$out/build/tests/fuzz"
rm -f "$out"/build/tests/fuzz/*
packed=()
for t in "${targets[@]}"; do
  bin="$build/tests/fuzz/fuzz_$t"
  [ -x "$bin" ] || { echo "fuzz-pack.sh: $bin is not built (scripts/build-fuzz.sh)" >&2; exit 2; }
  if [ $clang = 0 ] && readelf -d "$bin" | grep -q "NEEDED.*libclang-cpp"; then
    echo "fuzz-pack.sh: leaving out $t (needs libclang-cpp)"; continue
  fi
  strip -g -o "$out/build/tests/fuzz/fuzz_$t" "$bin"
  xz -6 -T2 -f "$out/build/tests/fuzz/fuzz_$t"
  packed+=("$t")
done
libs=(libLLVM-15.so.1 libz3.so.4 libedit.so.2)
[ $clang = 1 ] && libs+=(libclang-cpp.so.15)
for l in "${libs[@]}"; do
  [ -f "$out/lib/$l.xz" ] && continue
  path=$(ldd "$build/tests/fuzz/fuzz_${packed[0]}" | awk -v l="$l" '$1 == l {print $3}')
  [ -n "$path" ] || path=$(ldconfig -p | awk -v l="$l" '$1 == l {print $NF; exit}')
  xz -9 -T2 -c "$(readlink -f "$path")" > "$out/lib/$l.xz"
done
[ $clang = 1 ] || rm -f "$out/lib/libclang-cpp.so.15.xz"
cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Unpacks this folder's targets and libraries, then runs scripts/fuzz.sh on them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for f in "$here"/lib/*.xz "$here"/build/tests/fuzz/*.xz; do
  python3 -c 'import lzma, sys; open(sys.argv[1][:-3], "wb").write(lzma.open(sys.argv[1]).read())' "$f"
  rm -f "$f"
done
chmod +x "$here"/build/tests/fuzz/fuzz_*
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mapfile -t targets < <(cd "$here/build/tests/fuzz" && ls fuzz_* | sed 's/^fuzz_//')
exec bash "$here/../scripts/fuzz.sh" --build "$here/build" "$@" "${targets[@]}"
RUN
chmod +x "$out/run.sh"
echo "fuzz-pack.sh: ${#packed[@]} targets in $out ($(du -sh "$out" | cut -f1)): ${packed[*]}"
