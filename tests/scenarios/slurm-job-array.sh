#!/bin/bash
# A Slurm job array of regscope shards (docs/sharding.md): starts a one-node Slurm cluster from Debian's
# packages (munged, slurmctld, slurmd) in the scratch directory, on private loopback ports, each daemon in
# the foreground and stopped by its process id (no systemd); submits `sbatch --array=1-3` of
# `regscope analyze -p ... --shard auto --format json`, merges the three shard reports and compares them
# with the one-process report (JSON byte for byte but the shard object; text and CSV byte for byte).
# The project: four HeCBench benchmarks (shmembench, distort, log2, stencil1d: small, no -I of their own)
# copied from $REGSCOPE_HECBENCH (default /work/corpus/src, HeCBench's src/ folder) with a compile
# database written here, as HeCBench's Makefiles compile them; where that tree is not on the machine
# (CI), four of this repository's kernels instead.
# Skips (exit 77) only when the Slurm or munge packages are missing or the daemons cannot start here.
. "$(dirname "$0")/lib.sh"; need hipcc python3 git munged mungekey slurmctld slurmd sbatch squeue sinfo scancel; scratch

SL=$S/slurm
mkdir -p "$SL/state" "$SL/spool" "$SL/log" "$SL/munge"
chmod 700 "$SL/munge"
PIDS=()
stop_daemons() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2> /dev/null; done
  for p in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
    kill -9 "$p" 2> /dev/null
    wait "$p" 2> /dev/null
  done
  PIDS=()
}
trap 'stop_daemons; finish' EXIT
# skip_all WHY: Slurm cannot start here; the log says why.
skip_all() { skip slurm-ctl "$1"; for f in "$SL"/log/*; do [ -s "$f" ] && { echo "--- $f"; tail -5 "$f"; }; done; exit; }

# ---- the project: sources and a compile database
mkdir -p project
HEC=${REGSCOPE_HECBENCH:-/work/corpus/src}
HEC_BENCHES=(shmembench-hip distort-hip log2-hip stencil1d-hip)
if [ -d "$HEC/${HEC_BENCHES[0]}" ]; then
  for b in "${HEC_BENCHES[@]}"; do [ -d "$HEC/$b" ] && cp -r "$HEC/$b" project/; done
  mapfile -t SOURCES < <(cd project && ls -- */*.cu 2>/dev/null | sort)
  FLAGS="-std=c++17 -Wall -O3"   # HeCBench's Makefiles' CFLAGS for these
  echo "project: HeCBench from $HEC: ${SOURCES[*]}"
else
  for k in bitonic/bitonic.hip laplacian/laplacian.hip unroll/ax.hip wideload/wideload.hip; do
    mkdir -p "project/$(dirname "$k")"; cp "$SRC/kernels/$k" "project/$k"
  done
  cp -r "$SRC/kernels/common" project/common
  mapfile -t SOURCES < <(cd project && ls -- */*.hip | sort)
  FLAGS="-std=c++17 -O3 -I$S/project/common"
  echo "project: this repository's kernels: ${SOURCES[*]}"
fi
[ "${#SOURCES[@]}" -ge 3 ] || { fail "slurm-ctl" "fewer than 3 sources in the project: ${SOURCES[*]}"; exit; }
python3 - "$S/project" "$FLAGS" "${SOURCES[@]}" > project/compile_commands.json <<'PY'
import json, sys
root, flags, sources = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
print(json.dumps([{"directory": root, "file": f, "arguments": ["hipcc", *flags, "--offload-arch=gfx90a", "-c", f, "-o",
                   f + ".o"]} for f in sources], indent=1))
PY
git -C project init -q   # shard keys are repository-relative

# ---- munged, slurmctld, slurmd on private ports
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
CTL_PORT=$(port); D_PORT=$(port)
while [ "$D_PORT" = "$CTL_PORT" ]; do D_PORT=$(port); done
HOST=$(hostname -s 2> /dev/null || hostname)
USER_NAME=$(id -un)
mungekey -c -k "$SL/munge/munge.key" > /dev/null 2>&1 || skip_all "mungekey cannot make a key"
munged -F -f --key-file="$SL/munge/munge.key" --socket="$SL/munge/munge.sock" --pid-file="$SL/munge/munged.pid" \
  --seed-file="$SL/munge/munged.seed" > "$SL/log/munged.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$SL/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$SL/munge/munge.sock" ] || skip_all "munged did not start"
CPUS=$(nproc)
cat > "$SL/slurm.conf" <<CONF
ClusterName=regscope-test
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTL_PORT
SlurmdPort=$D_PORT
SlurmUser=$USER_NAME
SlurmdUser=$USER_NAME
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SL/munge/munge.sock
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool
SlurmctldPidFile=$SL/slurmctld.pid
SlurmdPidFile=$SL/slurmd.pid
SlurmctldLogFile=$SL/log/slurmctld.log
SlurmdLogFile=$SL/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$SL/slurm.conf
slurmctld -D -i -f "$SL/slurm.conf" > "$SL/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -N "$HOST" -f "$SL/slurm.conf" > "$SL/log/slurmd.out" 2>&1 &
PIDS+=($!)
up=0
for _ in $(seq 100); do
  state=$(sinfo -h -N -o '%t' 2> /dev/null | head -1)
  case "$state" in idle*|mix*|alloc*) up=1; break ;; esac
  sleep 0.2
done
[ "$up" = 1 ] || skip_all "slurmctld and slurmd did not bring the node up (state '${state:-none}')"
pass slurm-ctl "munged, slurmctld and slurmd up on ports $CTL_PORT, $D_PORT (node $state)"

# ---- the job array: one shard per task
N=3
mkdir -p shards
cat > shards/regscope.sbatch <<BATCH
#!/bin/bash
#SBATCH --job-name=regscope-shards
#SBATCH --array=1-$N
#SBATCH --output=$S/shards/slurm-%A_%a.out
#SBATCH --cpus-per-task=1
cd $S/project
TMPDIR=$RS_TMP exec $R analyze -p compile_commands.json --shard auto -v --format json \\
  -o $S/shards/shard-\$SLURM_ARRAY_TASK_ID.json
BATCH
sbatch --parsable shards/regscope.sbatch > sbatch.out 2> sbatch.err
JOB=$(cut -d';' -f1 < sbatch.out)
[ -n "$JOB" ] || { fail slurm-01 "sbatch: $(head -2 sbatch.err)"; exit; }
for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$JOB" 2> /dev/null)" ] && break
  sleep 0.2
done
if [ -n "$(squeue -h -j "$JOB" 2> /dev/null)" ]; then
  fail slurm-01 "job $JOB still queued or running after 120 s: $(squeue -h -j "$JOB" | head -3 | tr '\n' '|')"
  scancel "$JOB" 2> /dev/null; exit
fi
ok=1
for k in $(seq $N); do
  out=$(ls shards/slurm-"${JOB}"_"$k".out 2> /dev/null)
  if [ ! -s "shards/shard-$k.json" ]; then
    ok=0; fail "slurm-01-task$k" "no shard report: $(tail -3 "$out" 2> /dev/null | tr '\n' '|')"
  elif ! grep -q "regscope: --shard auto: shard $k/$N (SLURM_ARRAY_TASK_ID=$k, SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_COUNT=$N)" "$out"; then
    ok=0; fail "slurm-01-task$k" "the task did not say which shard it took: $(head -2 "$out" | tr '\n' '|')"
  fi
done
[ "$ok" = 1 ] && pass slurm-01 "sbatch --array=1-$N ran $N shards, each saying its K/N"
compiles=$(cat shards/slurm-"${JOB}"_*.out | grep -c ': compiled for ')
[ "$compiles" = "${#SOURCES[@]}" ] && pass slurm-02 "the shards compiled the ${#SOURCES[@]} sources once in all" ||
  fail slurm-02 "the shards compiled $compiles times for ${#SOURCES[@]} sources"

# ---- merged vs one process
cd project
rs ../one analyze -p compile_commands.json --format json
for fmt in text csv; do rs ../one-$fmt analyze -p compile_commands.json --format $fmt; done
cd ..
rs merged merge --format json shards/shard-*.json
for fmt in text csv; do (cd project && rs ../merged-$fmt merge --format $fmt ../shards/shard-*.json); done
if [ "$(rc one)" = 0 ] && [ "$(rc merged)" = 0 ]; then
  python3 - one.out merged.out > cmp.out <<'PY'
import json, sys
one, merged = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
shard = merged.pop("shard")
assert shard["shards"] == [1, 2, 3], shard["shards"]
print("same" if json.dumps(one, indent=2) == json.dumps(merged, indent=2) else "differ", len(one["kernels"]))
PY
  read -r same kernels < cmp.out
  [ "$same" = same ] && [ "${kernels:-0}" -gt 0 ] &&
    pass slurm-03 "merged report = one-process report ($kernels kernels, JSON but the shard object)" ||
    fail slurm-03 "merged JSON differs from the one-process JSON: $(cat cmp.out)"
else
  fail slurm-03 "one: $(seen one); merged: $(seen merged)"
fi
for fmt in text csv; do
  cmp -s one-$fmt.out merged-$fmt.out && pass "slurm-04-$fmt" "merged $fmt = one-process $fmt" ||
    fail "slurm-04-$fmt" "merged $fmt differs: $(diff one-$fmt.out merged-$fmt.out | head -3 | tr '\n' '|')"
done
stop_daemons
