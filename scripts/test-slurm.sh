#!/usr/bin/env bash
# A real single-host Slurm (slurmctld + slurmd + munged, generated slurm.conf, all
# in a temporary folder on free ports) runs scripts/slurm/pricecam-array.sbatch as
# an array of 3 shards over Fixtures/; the merged parts must equal one unsharded
# batch (every record, in order; the per-image timing aside).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/bootstrap.sh --slurm

bin="$(test_pricecam)"
work="$(mktemp -d)"
chmod 755 "$work"
cleanup() {
    for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munge/pid"; do
        [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    sleep 0.5
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "test-slurm: FAIL: $*" >&2
    for log in "$work/slurmctld.log" "$work/slurmd.log" "$work"/out/*.log; do
        [ -f "$log" ] && { echo "--- $log" >&2; tail -20 "$log" >&2; }
    done
    exit 1
}
free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# munge: its own key, socket and files (no system service needed).
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/out"
dd if=/dev/urandom of="$work/munge/key" bs=1024 count=1 status=none
chmod 600 "$work/munge/key"
munged --force --socket="$work/munge/socket" --key-file="$work/munge/key" --pid-file="$work/munge/pid" \
    --log-file="$work/munge/log" --seed-file="$work/munge/seed" || fail "munged did not start"

host="$(hostname -s)"
cat >"$work/slurm.conf" <<CONF
ClusterName=pricecam-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld || fail "slurmctld did not start"
# slurmd (22.05) starts its cgroup plugin even with proctrack/linuxproc and task/none. Where
# no cgroup filesystem is mounted (a chroot, a bare container), it gets a private one: a
# mount namespace of its own where /sys is made private (so nothing mounted there reaches
# the machine's own /sys) and /sys/fs/cgroup holds a tmpfs with the v1 hierarchies its
# cgroup/v1 plugin looks for (systemd's named one and freezer); only slurmd and its job
# steps see them. (`unshare --propagation unchanged`: in a chroot / is no mount point, so
# the default, making / private, fails.)
if mountpoint -q /sys/fs/cgroup; then
    slurmd -N "$host" || fail "slurmd did not start"
else
    mountpoint -q /sys || fail "neither /sys/fs/cgroup nor /sys is a mount point: slurmd cannot be given a private cgroup filesystem"
    unshare --mount --propagation unchanged sh -c '
        mount --make-rprivate /sys &&
        mount -t tmpfs cgroup_root /sys/fs/cgroup && mkdir -p /sys/fs/cgroup/systemd /sys/fs/cgroup/freezer &&
        mount -t cgroup -o none,name=systemd systemd /sys/fs/cgroup/systemd &&
        mount -t cgroup -o freezer freezer /sys/fs/cgroup/freezer && exec slurmd -N "$1"' slurmd "$host" ||
        fail "slurmd did not start (in its own mount namespace: no cgroup filesystem is mounted here)"
fi
for _ in $(seq 1 100); do
    sinfo -h -o %t 2>/dev/null | grep -q idle && break
    sleep 0.2
done
sinfo -h -o %t | grep -q idle || fail "the node never became idle: $(sinfo 2>&1)"

job="$(cd "$work/out" && sbatch --parsable --array=0-2 \
    --export="ALL,INPUT=$ROOT/Fixtures,OUT=$work/out,PRICECAM=$bin,PRICECAM_ARGS=--no-convert" \
    "$ROOT/scripts/slurm/pricecam-array.sbatch")" || fail "sbatch refused the job"
echo "test-slurm: submitted array job $job (3 shards)" >&2
for _ in $(seq 1 1800); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
    sleep 1
done
[ -z "$(squeue -h -j "$job")" ] || fail "job $job still queued or running after 30 minutes"
for i in 0 1 2; do [ -s "$work/out/part-$i.jsonl" ] || fail "shard $i wrote no output"; done

"$bin" merge "$work"/out/part-*.jsonl --output "$work/merged.jsonl" || fail "merge failed"
"$bin" batch "$ROOT/Fixtures" --no-convert --format jsonl --no-progress >"$work/whole.jsonl" || fail "the unsharded batch failed"
/usr/bin/python3 - "$work/merged.jsonl" "$work/whole.jsonl" <<'PY' || fail "merged shards differ from the unsharded batch"
import json, sys
def records(path):
    out = []
    for line in open(path):
        r = json.loads(line)
        r.pop("ms")  # timing: the one field that differs between runs
        out.append(r)
    return out
merged, whole = records(sys.argv[1]), records(sys.argv[2])
print(f"test-slurm: {len(merged)} merged records, {len(whole)} unsharded", file=sys.stderr)
sys.exit(0 if merged == whole else 1)
PY
echo "test-slurm: PASS (3 shards on Slurm, merged = unsharded batch)"
