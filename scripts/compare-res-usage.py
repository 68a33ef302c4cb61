import json, sys, collections, re
rs = json.load(open(sys.argv[1]))
mine = {}; arches = collections.Counter(); unk = collections.Counter(); copies = 0
for k in rs["kernels"]:
    if k.get("vendor") != "nvidia": continue
    key = (k["arch"], k["name"], k["registers"], k["stack_bytes"])
    mine.setdefault(key, set()).add(k["shared_bytes"])
    arches[k["arch"]] += 1
    copies += "#" in (k.get("file") or "")
    for u in k.get("unknown", []): unk[u] += 1
theirs = {}; arch = None; name = None; tarches = collections.Counter(); rows = 0
for line in open(sys.argv[2], errors="replace"):
    m = re.match(r"arch = (sm_\w+)", line)
    if m: arch = m.group(1); continue
    m = re.match(r" Function (.*):$", line.rstrip("\n"))
    if m: name = m.group(1); continue
    m = re.match(r"\s+REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+)", line)
    if m and name is not None:
        key = (arch, name, int(m.group(1)), int(m.group(2)))
        theirs.setdefault(key, set()).add(int(m.group(3)))
        rows += 1; name = None
for key in theirs: tarches[key[0]] += 1
print("cuobjdump: %d function records, %d distinct (arch, name, REG, STACK)" % (rows, len(theirs)), dict(tarches))
print("regscope: %d kernel records (%d of them a second compile, FILE#N)" % (sum(arches.values()), copies), dict(arches))
print("unknown fields:", dict(unk))
both = set(mine) & set(theirs)
print("equal (arch, name, REG, STACK):", len(both))
def shared_ok(key):
    return all(any(s == t or s + 1024 == t for t in theirs[key]) for s in mine[key] if s is not None)
print("  of which SHARED equal or cuobjdump = regscope + the 1 KiB reservation:", sum(shared_ok(k) for k in both))
om = sorted(set(mine) - set(theirs)); ot = sorted(set(theirs) - set(mine))
print("only regscope:", len(om), om[:4])
print("only cuobjdump:", len(ot), collections.Counter(k[0] for k in ot), ot[:4])
print("errors:", len(rs.get("errors", [])), rs.get("errors", [])[:3])
print("notes:", [n[:200] for n in rs.get("notes", [])[:5]])
print("warnings:", len(rs.get("warnings", [])), [w[:300] for w in rs.get("warnings", [])[:6]])
