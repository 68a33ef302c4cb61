#!/usr/bin/env bash
# Benchmark (not a test): a 200-kernel HTML report on two archs (the LBM
# kernel's hipcc 5.2.3 .s for gfx908 and gfx90a, renamed k0000..k0199: 400
# kernel x arch entries, 1,200 charts). Prints how long regscope takes to
# write it and how long headless Chromium takes to render it, timed inside
# the browser (start-up excluded), median of RUNS.
# Usage: scripts/bench-html.sh [RUNS] [KERNELS]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
runs=${1:-3}
kernels=${2:-200}
regscope=$(realpath build/regscope)
command -v chromium >/dev/null || { echo "bench-html: needs chromium (scripts/install-test-tools.sh)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CACHE_HOME=$scratch/cache

mkdir -p "$scratch/s"
for ((i = 0; i < kernels; i++)); do
  name=$(printf 'k%04d' "$i")  # as long as "kernel": the mangled length prefix stays 6
  for arch in gfx908 gfx90a; do
    sed "s/_Z6kernel/_Z6$name/g" "fixtures/hipcc-5.2.3/lbm-$arch.s" > "$scratch/s/$name-$arch.s"
  done
done
# The report in an iframe of a harness page that times it from inside the
# browser (performance.now() to the iframe's load event: parse, style, layout),
# so Chromium's start-up is not counted. The report itself has no script.
cat > "$scratch/harness.html" <<'HTML'
<!DOCTYPE html><body><script>
const t0 = performance.now();
const f = document.createElement('iframe');
f.style.width = '1400px'; f.style.height = '1800px';
f.onload = () => console.log('RENDER_MS ' + (performance.now() - t0).toFixed(0));
f.src = location.hash.slice(1); document.body.appendChild(f);
</script></body>
HTML
echo '<!DOCTYPE html><title>empty</title><p>empty</p>' > "$scratch/empty.html"

seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N); echo "$e - $s" | bc; }
render_ms() {
  rm -rf "$scratch/profile"
  chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$scratch/profile" --allow-file-access-from-files \
    --enable-logging=stderr --v=0 --dump-dom "file://$scratch/harness.html#$1" 2>&1 >/dev/null |
    sed -n 's/.*RENDER_MS \([0-9]*\).*/\1/p'
}

write=$(for _ in $(seq "$runs"); do seconds "$regscope" parse "$scratch"/s/*.s --format html -o "$scratch/report.html"; done | median)
"$regscope" parse "$scratch"/s/*.s --format html -o "$scratch/report.html"
charts=$(grep -c '<figure class="chart' "$scratch/report.html")
empty=$(for _ in $(seq "$runs"); do render_ms empty.html; done | median)
full=$(for _ in $(seq "$runs"); do render_ms report.html; done | median)
printf 'kernels x archs     %d (%d charts, %d KiB)\n' "$((kernels * 2))" "$charts" "$(($(stat -c %s "$scratch/report.html") / 1024))"
printf 'regscope writes it  %.3f s (parse of %d .s files included; median of %d)\n' "$write" "$((kernels * 2))" "$runs"
printf 'chromium renders it %.3f s (an empty page: %.3f s; median of %d)\n' "$(echo "$full / 1000" | bc -l)" \
  "$(echo "$empty / 1000" | bc -l)" "$runs"
printf 'load average        %s (%d cores): timings scale with it\n' "$(cut -d' ' -f1-3 /proc/loadavg)" "$(nproc)"
