#!/bin/bash
# Issue 16, items 14-17 (signals, exit codes, --timeout):
# each item's reproducer, built by the script, run through the regscope binary under test.
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
# ---- 16-14-17-signals-timeout
( mkdir -p 16-14 && cd 16-14 || exit 1
# Issue 16 items 14-17: an interrupted run leaves no compiler behind (hipcc is a Perl wrapper whose clang
# child kept running); a signal after the compiler exited but before the output is written still ends the
# run; SIGTERM exits 143 and SIGINT 130; --timeout SECONDS stops a hanging compiler.
lbm_src > k.hip
leftovers() { pgrep -f "$1" | tr '\n' ' '; }
reap() { for p in $(pgrep -f "$1"); do kill -KILL "$p" 2>/dev/null; done; }   # only processes of this run (unique marker)
# 14: SIGTERM to regscope's pid while hipcc compiles; the marker is a -D only this run's compiler has
# (signals at several moments: hipcc's perl starting, its sh -c, clang running)
i=0; bad=""
for d in 0.05 0.15 0.3 0.5 0.8 1.2 1.6 2.0; do
  i=$((i + 1)); M=RS_SCENARIO_MARK_$$_$i
  TMPDIR=$RS_TMP "$R" analyze k.hip --no-cache -- -D$M > /dev/null 2>&1 & p=$!
  sleep $d; kill -TERM $p; wait $p; code[$i]=$?
  sleep 1; l=$(leftovers "$M"); [ -n "$l" ] && bad="$bad [after ${d}s: $(ps -o comm= -p $l | tr '\n' ' ')]"; reap "$M"
done
if [ -z "$bad" ]; then pass 16-14 "no compiler process survives SIGTERM ($i runs, signals 0.05-2 s into the compile)"
else fail 16-14 "compiler processes still running 1 s after regscope exited on SIGTERM:$bad"; fi
code[1]=${code[5]}
# 16: exit codes
[ "${code[1]}" = 143 ] && pass 16-16a "SIGTERM exits 143" || fail 16-16a "SIGTERM exits ${code[1]}"
# A background job of a non-interactive shell starts with SIGINT ignored: wait until the compiler
# runs (regscope has installed its handlers by then) so the signal meets regscope's handler.
M=RS_SCENARIO_INT_$$
TMPDIR=$RS_TMP "$R" analyze k.hip --no-cache -- -D$M > /dev/null 2>&1 & p=$!
for _ in $(seq 100); do [ -n "$(leftovers "$M")" ] && break; sleep 0.1; done
kill -INT $p; wait $p; c=$?; reap "$M"
[ $c = 130 ] && pass 16-16b "SIGINT exits 130" || fail 16-16b "SIGINT exits $c"
# 15: the signal comes right after the compiler exited (a wrapper around hipcc sends it as it exits);
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
[ "$(rc ctl)" = 0 ] && grep -qE '(^| )k\(int' ctl.out || fail 16-15-ctl "the header-less kernel does not analyse: $(seen ctl)"
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
[ $dropped = 0 ] && pass 16-15 "a SIGTERM right after the compiler exited ended the run ($trials trials)" \
  || fail 16-15 "$dropped of $trials runs got SIGTERM before writing the report, then wrote it and exited 0"
# 17: a compiler that hangs
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
if [ $c != 0 ] && [ $c != 137 ] && [ $took -ge 2 ] && [ $took -lt 30 ]; then pass 16-17 "--timeout 3 stops a hanging compiler after ${took}s (exit $c)"
else fail 16-17 "--timeout 3 with a hanging compiler: exit $c after ${took}s: $(head -1 x.err | cut -c1-90)"; fi
)
