#!/usr/bin/env bash
# regscope merge at scale (docs/benchmarks.md, "Sharding"): synthetic shard reports of K kernels in
# all, made from one real shard report (parse of fixtures/hipcc-5.2.3/lbm-gfx90a.s, --shard 1/1)
# whose job is copied with new names, keys and places (and the fingerprint made again for the
# larger run), then `regscope merge` into JSON and text, timed with its peak memory (GNU time).
# Usage: scripts/bench-merge.sh BINARY [KERNELS...]   (default 10000 50000 100000; 10 shards)
set -euo pipefail
R=$(realpath "$1"); shift
SRC=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- 10000 50000 100000
W=$(mktemp -d "${TMPDIR:-/tmp}/regscope-bench-merge.XXXXXX")
trap 'rm -rf "$W"' EXIT
cp "$SRC/fixtures/hipcc-5.2.3/lbm-gfx90a.s" "$W/one.s"
(cd "$W" && "$R" parse one.s --shard 1/1 --format json -o template.json)
for kernels in "$@"; do
  python3 - "$W/template.json" "$W" "$kernels" 10 <<'PY'
import copy, hashlib, json, sys
template, out, kernels, shards = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
piece = template["shard"]["pieces"][0]
per_piece = len(piece["records"])
jobs = (kernels + per_piece - 1) // per_piece
run = dict(template["shard"])
fp = [run["command"], shards, run["regscope_version"], "synthetic-%d" % jobs, run["options_digest"],
      run["config_digest"] or "", run["run_id"] or "", jobs]
run.update(count=shards, jobs=jobs, inputs_digest="synthetic-%d" % jobs,
           fingerprint=hashlib.sha256(json.dumps(fp, separators=(",", ":")).encode()).hexdigest())
for s in range(shards):
    pieces = []
    for j in range(s, jobs, shards):
        p = copy.deepcopy(piece)
        p.update(index=j, key="src/file%06d.s" % j, input="src/file%06d.s" % j)
        for r in p["records"]:
            r["name"] += "_%d" % j
            r["demangled"] += "_%d" % j
            r["file"] = "src/file%06d.s" % j
        p["display"] = {"src/file%06d.s" % j: "src/file%06d.s" % j}
        pieces.append(p)
    shard = dict(run, shards=[s + 1], pieces=pieces)
    # records_digest (shard format 2): SHA-256 over the fingerprint and the shard's content as
    # nlohmann's dump writes it (sorted keys, no spaces, UTF-8 unescaped).
    body = {"shards": shard["shards"], "compiler_path": shard["compiler_path"], "config": shard["config"],
            "pieces": pieces}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    shard["records_digest"] = hashlib.sha256((run["fingerprint"] + "\n" + text).encode()).hexdigest()
    doc = {"shard": shard}
    json.dump(doc, open("%s/shard-%02d.json" % (out, s + 1), "w"))
print("%d kernels in %d jobs over %d shards" % (jobs * per_piece, jobs, shards))
PY
  du -sh "$W"/shard-*.json | awk '{s=s" "$1} END {print "  shard files:" s}'
  # NO_TIMING=1: only make the shards (scripts/bench-signals.sh keeps them with KEEP).
  [ -n "${NO_TIMING:-}" ] || for format in json text; do
    /usr/bin/time -f "  merge --format $format: %e s, peak %M KiB" "$R" merge --format $format "$W"/shard-*.json \
      > "$W/merged.$format"
  done
  [ -n "${KEEP:-}" ] && cp "$W"/shard-*.json "$KEEP"/
  rm -f "$W"/shard-*.json "$W"/merged.*
done
