#!/bin/sh
# A throwaway single-node Slurm for tests/sweep_remote.sh: munged with its own
# key and socket, slurmctld and slurmd on this host, all state under DIR.
#   sh tests/slurm-single-node.sh start DIR [SECONDS]  # ready, or exit 1
#   sh tests/slurm-single-node.sh stop DIR
# Prints `export SLURM_CONF=...` lines' worth into DIR/env for sbatch.
# Root only (slurmd runs the job steps); Debian's slurm-wlm and munge.
set -u
cmd=$1
D=$2
limit=${3:-60}
# Each daemon by its own pid file, waited for so DIR can go.
stop() {
	for f in slurmd slurmctld munged; do
		[ -f "$D/$f.pid" ] || continue
		pid=$(cat "$D/$f.pid")
		kill "$pid" 2>/dev/null || continue
		n=0
		while kill -0 "$pid" 2>/dev/null && [ $n -lt 50 ]; do
			# A daemon whose parent is gone may linger as a zombie: done.
			grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null && break
			sleep 0.2
			n=$((n + 1))
		done
	done
	return 0
}
[ "$cmd" = stop ] && { stop; exit 0; }
[ "$(id -u)" -eq 0 ] || { echo "slurm: needs root" >&2; exit 1; }
for b in munged slurmctld slurmd sbatch; do
	command -v "$b" >/dev/null || [ -x "/usr/sbin/$b" ] || { echo "slurm: no $b" >&2; exit 1; }
done
PATH=$PATH:/usr/sbin
mkdir -p "$D/state" "$D/spool" "$D/munge" && chmod 700 "$D/munge"
dd if=/dev/urandom of="$D/munge/key" bs=1024 count=1 2>/dev/null && chmod 400 "$D/munge/key"
munged --force --key-file="$D/munge/key" --socket="$D/munge/socket" \
	--pid-file="$D/munged.pid" --log-file="$D/munged.log" --seed-file="$D/munge/seed" ||
	{ echo "slurm: munged did not start: $(tail -n 2 "$D/munged.log")" >&2; exit 1; }
host=$(hostname -s)
cpus=$(nproc)
cat >"$D/slurm.conf" <<CONF
ClusterName=gullytest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge/socket
CredType=cred/munge
SlurmctldPort=$((30000 + $$ % 10000))
SlurmdPort=$((40000 + $$ % 10000))
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
echo "export SLURM_CONF=$D/slurm.conf" >"$D/env"
export SLURM_CONF="$D/slurm.conf"
slurmctld -f "$D/slurm.conf" || { echo "slurm: slurmctld failed: $(tail -n 3 "$D/slurmctld.log")" >&2; stop; exit 1; }
slurmd -f "$D/slurm.conf" || { echo "slurm: slurmd failed: $(tail -n 3 "$D/slurmd.log")" >&2; stop; exit 1; }
i=0
while [ $i -lt "$limit" ]; do
	sinfo -h -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed)' && { echo "slurm: up in ${i}s"; exit 0; }
	sleep 1
	i=$((i + 1))
done
echo "slurm: no idle node after ${limit}s: $(sinfo 2>&1 | tail -n 2 | tr '\n' ' ') $(tail -n 3 "$D/slurmd.log" "$D/slurmctld.log" | tr '\n' ' ')" >&2
stop
exit 1
