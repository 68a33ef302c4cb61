#!/usr/bin/env python3
# compile_commands.json from `make -n -w` in HeCBench benchmark directories (the hipcc -c lines), for
# docs/real-projects.md. Usage: hecbench-db.py OUT.json BENCH-hip [BENCH-hip ...] (run in HeCBench's src/)
import json, os, re, shlex, subprocess, sys
entries = []
for d in sys.argv[2:]:
    d = os.path.abspath(d)
    out = subprocess.run(['make', '-n', '-w'], cwd=d, capture_output=True, text=True).stdout
    cwd = d
    for line in out.splitlines():
        m = re.match(r"make(\[\d+\])?: Entering directory '(.*)'", line)
        if m: cwd = m.group(2); continue
        words = shlex.split(line)
        if not words or 'hipcc' not in words[0] or '-c' not in words: continue
        srcs = [w for w in words[1:] if w.endswith(('.cu', '.cpp', '.cc', '.hip')) and not w.startswith('-')]
        for s in srcs:
            entries.append({'directory': cwd, 'arguments': words, 'file': s})
json.dump(entries, open(sys.argv[1], 'w'), indent=1)
print(len(entries), 'entries')
