#!/bin/bash
# Signals, exit codes and --timeout: each case's reproducer, built by the script, run through the
# regscope binary under test.
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
# ---- signals-01 to signals-04: compilers reaped, exit codes, a late signal, --timeout
( mkdir -p signals-01 && cd signals-01 || exit 1
# An interrupted run leaves no compiler behind (hipcc is a Perl wrapper whose clang
# child kept running); a signal after the compiler exited but before the output is written still ends the
# run; SIGTERM exits 143 and SIGINT 130; --timeout SECONDS stops a hanging compiler.
lbm_src > k.hip
leftovers() { pgrep -f "$1" | tr '\n' ' '; }
reap() { for p in $(pgrep -f "$1"); do kill -KILL "$p" 2>/dev/null; done; }   # only processes of this run (unique marker)
# signals-01: SIGTERM to regscope's pid while hipcc compiles; the marker is a -D only this run's compiler has
# (signals at several moments: hipcc's perl starting, its sh -c, clang running)
i=0; bad=""
for d in 0.05 0.15 0.3 0.5 0.8 1.2 1.6 2.0; do
  i=$((i + 1)); M=RS_SCENARIO_MARK_$$_$i
  TMPDIR=$RS_TMP "$R" analyze k.hip --no-cache -- -D$M > /dev/null 2>&1 & p=$!
  sleep $d; kill -TERM $p; wait $p; code[$i]=$?
  sleep 1; l=$(leftovers "$M"); [ -n "$l" ] && bad="$bad [after ${d}s: $(ps -o comm= -p $l | tr '\n' ' ')]"; reap "$M"
done
if [ -z "$bad" ]; then pass signals-01 "no compiler process survives SIGTERM ($i runs, signals 0.05-2 s into the compile)"
else fail signals-01 "compiler processes still running 1 s after regscope exited on SIGTERM:$bad"; fi
# signals-02: exit codes. The signal must arrive while the compiler runs (a fast machine compiles LBM in
# under a second): wait for regscope's first child instead of a fixed delay.
M=RS_SCENARIO_TERM_$$
TMPDIR=$RS_TMP "$R" analyze k.hip --no-cache -- -D$M > /dev/null 2>&1 & p=$!
for _ in $(seq 200); do pgrep -P $p > /dev/null && break; sleep 0.05; done
kill -TERM $p; wait $p; code[1]=$?; reap "$M"
[ "${code[1]}" = 143 ] && pass signals-02a "SIGTERM exits 143" || fail signals-02a "SIGTERM exits ${code[1]}"
# A background job of a non-interactive shell starts with SIGINT ignored: wait until the compiler
# runs (regscope has installed its handlers by then) so the signal meets regscope's handler.
M=RS_SCENARIO_INT_$$
TMPDIR=$RS_TMP "$R" analyze k.hip --no-cache -- -D$M > /dev/null 2>&1 & p=$!
for _ in $(seq 100); do [ -n "$(leftovers "$M")" ] && break; sleep 0.1; done
kill -INT $p; wait $p; c=$?; reap "$M"
[ $c = 130 ] && pass signals-02b "SIGINT exits 130" || fail signals-02b "SIGINT exits $c"
# signals-03: the signal comes right after the compiler exited (a wrapper around hipcc sends it as it exits);
# if it arrived before the report was written, the run must not exit 0 with the report.
# (a kernel without headers, compiled with -nogpuinc: the 16 trials need a real compile, not a slow one)
printf '__attribute__((global)) void k(int *p) { p[0] = 1; }\n' > small.hip
cat > late-signal.sh <<'W'
#!/bin/bash
hipcc -nogpuinc "$@"; rc=$?
p=$PPID; ( sleep "$RS_DELAY"; date +%s%N > "$RS_STAMP"; kill -TERM $p && echo sent >> "$RS_STAMP" ) </dev/null >/dev/null 2>&1 &
exit $rc
W
rs ctl analyze small.hip --no-cache -- -nogpuinc   # control: this kernel compiles and is reported
[ "$(rc ctl)" = 0 ] && grep -qE '(^| )k\(int' ctl.out || fail signals-03-ctl "the header-less kernel does not analyse: $(seen ctl)"
chmod +x late-signal.sh; dropped=0; trials=0
for d in 0 0 0 0.002 0.005 0.005 0.01 0.01 0.015 0.02 0.02 0.03 0.04 0.05 0.07 0.1; do
  rm -f report.txt stamp; trials=$((trials + 1))
  RS_DELAY=$d RS_STAMP=$PWD/stamp TMPDIR=$RS_TMP "$R" analyze small.hip --no-cache --compiler "$PWD/late-signal.sh" -o report.txt > /dev/null 2>&1; c=$?
  sleep 0.2
  if [ $c = 0 ] && grep -q sent stamp 2>/dev/null && [ -f report.txt ]; then
    sig=$(head -1 stamp); out=$(python3 -c "import os; print(os.stat('report.txt').st_mtime_ns)")
    [ "$sig" -lt "$out" ] && dropped=$((dropped + 1))
  fi
done
[ $dropped = 0 ] && pass signals-03 "a SIGTERM right after the compiler exited ended the run ($trials trials)" \
  || fail signals-03 "$dropped of $trials runs got SIGTERM before writing the report, then wrote it and exited 0"
# signals-04: a compiler that hangs
cat > hang.sh <<'W'
#!/bin/bash
echo $$ > "$(dirname "$0")/hang.pid"
exec sleep 1000
W
chmod +x hang.sh
start=$(date +%s)
TMPDIR=$RS_TMP timeout -s KILL 60 "$R" analyze small.hip --no-cache --compiler "$PWD/hang.sh" --timeout 3 > x.out 2> x.err; c=$?
took=$(( $(date +%s) - start ))
[ -f hang.pid ] && kill -KILL "$(cat hang.pid)" 2>/dev/null   # the hanging "compiler" this scenario started
if [ $c != 0 ] && [ $c != 137 ] && [ $took -ge 2 ] && [ $took -lt 30 ]; then pass signals-04 "--timeout 3 stops a hanging compiler after ${took}s (exit $c)"
else fail signals-04 "--timeout 3 with a hanging compiler: exit $c after ${took}s: $(head -1 x.err | cut -c1-90)"; fi
)
# ---- signals-05: the queue stops, compilers die with regscope, baseline writes
( mkdir -p signals-05 && cd signals-05 || exit 1
# After SIGTERM/SIGINT no new compiler starts (1,000 queued files kept starting a
# compiler each for 5 s; 10,000 .s files took 42 s), the exit is 143/130 within a second, nothing
# outlives regscope even when it is killed with SIGKILL, and a signal during a baseline write exits 143.
cat > slow.sh <<'W'
#!/bin/bash
date +%s%N >> "$(dirname "$0")/starts"
exec sleep 0.2
W
chmod +x slow.sh
mkdir q; for i in $(seq 1000); do : > q/f$i.hip; done
# Up to three trials: on a loaded 2-core CI runner (the fuzz test beside it) one
# trial's exit can be delayed by the scheduler alone; every trial must start
# no compiler after the signal and exit 143, and one must do it within a second.
verdict=""; note=""
for trial in 1 2 3; do
  rm -f starts
  TMPDIR=$RS_TMP "$R" analyze q/*.hip --no-cache -j 2 --compiler "$PWD/slow.sh" > /dev/null 2>&1 & p=$!
  for _ in $(seq 100); do [ -s starts ] && break; sleep 0.05; done
  sleep 0.5; sent=$(date +%s%N); kill -TERM $p; wait $p; c=$?; ended=$(date +%s%N)
  late=$(awk -v t="$sent" '$1 > t + 50000000' starts | wc -l)   # started more than 50 ms after the signal
  ms=$(( (ended - sent) / 1000000 ))
  note="$note${note:+, }trial $trial: exit $c in ${ms} ms, $late late"
  if [ $c != 143 ] || [ "$late" != 0 ]; then verdict=fail; break; fi
  if [ $ms -lt 1000 ]; then verdict=pass; break; fi
done
if [ "$verdict" = pass ]; then pass signals-05a "SIGTERM with 1,000 files queued: exit 143 in ${ms} ms, no compiler started after it ($(wc -l < starts) ran; $note)"
else fail signals-05a "SIGTERM with 1,000 files queued: $note"; fi
# 10,000 .s files to parse (1.5 s on 2 cores since the parse runs in parallel; the signal comes at 0.1 s): SIGINT (a background job starts with SIGINT ignored, so SIGTERM here too: the same path)
mkdir s; cp "$SRC/fixtures/hipcc-5.2.3/lbm-gfx90a.s" s/a.s
for i in $(seq 10000); do ln s/a.s s/a$i.s; done
TMPDIR=$RS_TMP "$R" parse s/*.s > /dev/null 2>&1 & p=$!
sleep 0.1; sent=$(date +%s%N); kill -TERM $p; wait $p; c=$?; ms=$(( ($(date +%s%N) - sent) / 1000000 ))
if [ $c = 143 ] && [ $ms -lt 1000 ]; then pass signals-05b "SIGTERM while parsing 10,000 .s files: exit 143 in ${ms} ms"
elif [ $c = 2 ] || [ $c = 0 ]; then skip signals-05b "parse finished (exit $c) before the signal (${ms} ms)"
else fail signals-05b "SIGTERM while parsing 10,000 .s files: exit $c after ${ms} ms"; fi
# SIGKILL leaves no time to end the compiler's group: PR_SET_PDEATHSIG ends the compiler itself
M=RS_SCENARIO_KILL_$$
cat > hang.sh <<W
#!/bin/bash
exec -a $M sleep 1000
W
chmod +x hang.sh; printf '__attribute__((global)) void k(int *p) { p[0] = 1; }\n' > k.hip
TMPDIR=$RS_TMP "$R" analyze k.hip --no-cache --compiler "$PWD/hang.sh" > /dev/null 2>&1 & p=$!
for _ in $(seq 100); do pgrep -f "$M" > /dev/null && break; sleep 0.05; done
kill -KILL $p; wait $p 2>/dev/null; sleep 0.5
if [ -z "$(pgrep -f "$M")" ]; then pass signals-05c "regscope killed with SIGKILL: its compiler did not outlive it"
else fail signals-05c "regscope killed with SIGKILL: its compiler $(pgrep -f "$M" | tr '\n' ' ') still runs"; for q in $(pgrep -f "$M"); do kill -KILL $q; done; fi
rm -rf "$RS_TMP"/regscope-*   # the killed run could not remove its directory (SIGKILL): not this check's concern
# a signal as the baseline is written: the file stays whole (old or new) and the run exits 143
cat > late.sh <<'W'
#!/bin/bash
hipcc -nogpuinc "$@"; rc=$?
p=$PPID; ( sleep "$RS_DELAY"; date +%s%N > "$RS_STAMP"; kill -TERM $p && echo sent >> "$RS_STAMP" ) </dev/null >/dev/null 2>&1 &
exit $rc
W
chmod +x late.sh
TMPDIR=$RS_TMP "$R" baseline k.hip -o b.json -- -nogpuinc > /dev/null 2>&1
# 100,000 other files' entries, so that reading and writing the baseline takes a while and the signals land in it
python3 - <<'PY'
import json
d = json.load(open('b.json'))
e = d['kernels'][0]
d['kernels'] += [dict(e, file='other/f%d.hip' % i, source='other/f%d.hip' % i) for i in range(100000)]
json.dump(d, open('b.json', 'w'), indent=2)
PY
dropped=0; broken=0; trials=0; landed=0
for d in 0.1 0.3 0.5 0.7 0.9 1.2 1.5 1.9 2.4 3.0; do
  trials=$((trials + 1)); rm -f stamp
  RS_DELAY=$d RS_STAMP=$PWD/stamp TMPDIR=$RS_TMP "$R" gate k.hip --baseline b.json --update-baseline --no-cache \
    --compiler "$PWD/late.sh" > /dev/null 2>&1; c=$?
  sleep 0.2
  python3 -c "import json; assert len(json.load(open('b.json'))['kernels']) == 100001" 2>/dev/null || broken=$((broken + 1))
  [ $c = 143 ] && landed=$((landed + 1))
  if [ $c = 0 ] && grep -q sent stamp 2>/dev/null; then
    sig=$(head -1 stamp); out=$(python3 -c "import os; print(os.stat('b.json').st_mtime_ns)")
    [ "$sig" -lt "$out" ] && dropped=$((dropped + 1))
  fi
done
# the last trial's signaller may still be sleeping: let it finish before the scratch directory goes
for _ in $(seq 50); do grep -q . stamp 2>/dev/null && break; sleep 0.1; done; sleep 0.1
if [ $broken = 0 ] && [ $dropped = 0 ]; then pass signals-05d "SIGTERM around the baseline write: the file always whole, no run ignored the signal ($trials trials, $landed ended 143)"
else fail signals-05d "SIGTERM around the baseline write: $broken broken baselines, $dropped runs exited 0 after the signal ($trials trials)"; fi
[ -e b.json.lock ] && fail signals-05e "a lock file was left beside the baseline" || pass signals-05e "no lock file left beside the baseline"
)
