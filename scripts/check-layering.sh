#!/usr/bin/env bash
# Checks the layering rule of layering.txt (the one place it is written):
#  - every #include of a project header under src/ and include/regscope/, in
#    either spelling ("regscope/X/..." or <regscope/X/...>), names a library
#    the including library may include; a relative include ("../x.h") stays in
#    its library's folder;
#  - every folder under src/ and include/regscope/ that holds files belongs to
#    a library layering.txt lists (a folder added later must be placed);
#  - every regscope_* link in CMakeLists.txt (regscope_stage LINKS and
#    target_link_libraries) is one layering.txt allows (headers-only entries
#    may not be linked), and each library line names only lines above it.
# Usage: scripts/check-layering.sh [REPO]; exit 1 listing each offence.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
exec python3 - "$PWD" <<'PY'
import os, re, sys

root = sys.argv[1]
bad = []

# ---- layering.txt
rules, order = {}, []  # name -> (may use and link, headers only)
with open(os.path.join(root, "layering.txt")) as f:
    for n, line in enumerate(f, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"([a-z_]+(?:/[a-z_]+)?):\s*([^|]*?)\s*(?:\|\s*(.*))?", line)
        if not m:
            bad.append(f"layering.txt:{n}: not 'NAME: LIBRARIES [| HEADERS ONLY]': {line}")
            continue
        name, uses, headers = m.group(1), m.group(2).split(), (m.group(3) or "").split()
        for dep in uses:
            if dep not in rules:
                bad.append(f"layering.txt:{n}: '{name}' uses '{dep}', which is not a line above it")
        rules[name] = (set(uses), set(headers))
        order.append(name)
for name, (_, headers) in rules.items():
    for dep in headers:
        if dep not in rules:
            bad.append(f"layering.txt: '{name}' names headers of '{dep}', which it does not list")

def library_of(rel):
    """The library whose folder holds `rel` (a path under src/ or include/regscope/), or None."""
    parts = rel.split("/")
    for depth in (2, 1):
        if len(parts) > depth and "/".join(parts[:depth]) in rules:
            return "/".join(parts[:depth])
    return None

def target_of(name):
    return "regscope" if name == "cli" else "regscope_" + name.replace("backends/", "backend_").replace("/", "_")

# ---- folders and includes
include_re = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
for base in ("src", "include/regscope"):
    top = os.path.join(root, base)
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, top).replace(os.sep, "/")
        if not filenames or rel_dir == ".":
            if filenames:
                bad.append(f"{base}/: files outside any library folder: {' '.join(sorted(filenames))}")
            continue
        lib = library_of(rel_dir + "/x")
        if lib is None:
            bad.append(f"{base}/{rel_dir}/: a folder layering.txt does not list (add its library line)")
            continue
        uses, headers = rules[lib]
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            shown = os.path.relpath(path, root)
            try:
                lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
            except OSError:
                continue
            for n, text in enumerate(lines, 1):
                m = include_re.match(text)
                if not m:
                    continue
                quote, inc = m.group(1), m.group(2)
                if inc.startswith("regscope/"):
                    used = library_of(inc[len("regscope/"):])
                    if used is None:
                        bad.append(f"{shown}:{n}: '{inc}' is in no library layering.txt lists")
                    elif used != lib and used not in uses and used not in headers:
                        bad.append(f"{shown}:{n}: library '{lib}' includes '{used}' ({inc}); layering.txt does not allow it")
                elif quote == '"' and ".." in inc.split("/"):
                    target = os.path.normpath(os.path.join(dirpath, inc))
                    rel = os.path.relpath(target, top).replace(os.sep, "/")
                    if rel.startswith("..") or library_of(rel) != lib:
                        bad.append(f"{shown}:{n}: relative include '{inc}' leaves the '{lib}' folder")

# ---- CMakeLists.txt links
cmake = open(os.path.join(root, "CMakeLists.txt")).read()
cmake = re.sub(r"#[^\n]*", "", cmake)
by_target = {target_of(name): name for name in rules}
links = {}  # target -> [regscope_* it links]
for m in re.finditer(r"regscope_stage\(\s*(\w+)(.*?)\)", cmake, re.S):
    body = m.group(2)
    lm = re.search(r"\bLINKS\b(.*)", body, re.S)
    links.setdefault(m.group(1), []).extend(re.findall(r"\bregscope_\w+", lm.group(1) if lm else ""))
for m in re.finditer(r"target_link_libraries\(\s*([\w-]+)(.*?)\)", cmake, re.S):
    links.setdefault(m.group(1), []).extend(re.findall(r"\bregscope_\w+", m.group(2)))
for target, linked in sorted(links.items()):
    if target not in by_target:
        if target.startswith("regscope_"):
            bad.append(f"CMakeLists.txt: {target} is no library of layering.txt")
        continue
    uses, _ = rules[by_target[target]]
    for dep in linked:
        if dep not in by_target:
            bad.append(f"CMakeLists.txt: {target} links {dep}, which is no library of layering.txt")
        elif by_target[dep] not in uses:
            bad.append(f"CMakeLists.txt: {target} links {dep}; layering.txt does not allow it")
for name in order:
    if target_of(name) not in links and not re.search(r"add_library\(\s*%s\b" % re.escape(target_of(name)), cmake):
        bad.append(f"CMakeLists.txt: no target {target_of(name)} for layering.txt's '{name}'")

for line in bad:
    print(line)
if bad:
    sys.exit(1)
print(f"layering: {len(rules)} libraries, every include, folder and link as layering.txt says")
PY
