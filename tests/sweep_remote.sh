#!/bin/sh
# A sweep that leaves the machine, for real: `gully sweep --emit --out DIR`
# through GNU parallel --sshlogin to an sshd this test starts on localhost
# (a throwaway host key, user key and port), then `--collect DIR`, equal to
# the local `gully sweep` in every column but the two timings. Then the Slurm
# job array: under a real single-node Slurm when slurmctld, slurmd and munged
# are installed and start within a minute, else each task's command run for
# every index (the log says which). Skips (77) with the reason when sshd or parallel cannot run.
set -u
GULLY=${GULLY:-./gully}
case $GULLY in /*) ;; *) GULLY=$(pwd)/$GULLY ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/gully-remote-test.XXXXXX") || exit 99
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
skip() {
	echo "SKIP: $*"
	exit 77
}

# The sweep, and the same sweep run here as the reference.
grid="--vary particles.friction=0.02,0.1 --vary world.seed=1:3:1 --particles 300 --size 32x32"
"$GULLY" sweep $grid --jobs 2 --quiet >"$T/local.tsv" || fail "the local sweep failed"
[ "$(wc -l <"$T/local.tsv")" -eq 7 ] || fail "the local sweep has not 6 rows"
# Every column but seconds and particles_per_second (the 9th and 10th).
same_table() {
	cut -f 1-8,11- "$1" >"$T/a.cmp"
	cut -f 1-8,11- "$2" >"$T/b.cmp"
	cmp -s "$T/a.cmp" "$T/b.cmp"
}

# ---- GNU parallel over ssh
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$SSHD" ] || skip "no sshd (openssh-server) to start"
command -v ssh >/dev/null && command -v ssh-keygen >/dev/null || skip "no ssh client"
command -v parallel >/dev/null || skip "no GNU parallel"
mkdir -p "$T/ssh" && chmod 700 "$T/ssh"
ssh-keygen -q -t ed25519 -N '' -f "$T/ssh/host" || skip "ssh-keygen failed"
ssh-keygen -q -t ed25519 -N '' -f "$T/ssh/user" || skip "ssh-keygen failed"
cp "$T/ssh/user.pub" "$T/ssh/authorized_keys"
# sshd as root needs its privilege-separation directory.
[ "$(id -u)" -ne 0 ] || [ -d /run/sshd ] || mkdir -p /run/sshd 2>/dev/null
port=""
for try in 1 2 3 4 5; do
	p=$((20000 + $$ % 20000 + try * 97))
	cat >"$T/ssh/sshd_config" <<-CONF
	Port $p
	ListenAddress 127.0.0.1
	HostKey $T/ssh/host
	AuthorizedKeysFile $T/ssh/authorized_keys
	PidFile $T/ssh/sshd.pid
	StrictModes no
	UsePAM no
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	PermitRootLogin prohibit-password
	CONF
	"$SSHD" -D -e -f "$T/ssh/sshd_config" 2>"$T/ssh/sshd.log" &
	sshd_pid=$!
	pids="$pids $sshd_pid"
	ssh="ssh -i $T/ssh/user -p $p -o BatchMode=yes -o StrictHostKeyChecking=no"
	ssh="$ssh -o UserKnownHostsFile=$T/ssh/known_hosts -o LogLevel=ERROR"
	for wait in 1 2 3 4 5 6 7 8 9 10; do
		$ssh "$(id -un)@127.0.0.1" true 2>/dev/null && port=$p && break 2
		kill -0 "$sshd_pid" 2>/dev/null || break
		sleep 0.5
	done
	kill "$sshd_pid" 2>/dev/null
done
[ -n "$port" ] || skip "sshd did not start: $(tail -n 3 "$T/ssh/sshd.log" | tr '\n' ' ')"
echo "ok: sshd on 127.0.0.1:$port"

"$GULLY" sweep $grid --emit --gully "$GULLY" --out "$T/runs" >"$T/commands" ||
	fail "--emit --out failed"
[ "$(wc -l <"$T/commands")" -eq 6 ] || fail "--emit printed not 6 commands"
# The remote side gets a plain shell with no build directory on its PATH.
parallel --sshlogin "$ssh $(id -un)@127.0.0.1" --jobs 2 <"$T/commands" >"$T/parallel.out" \
	2>"$T/parallel.err" || fail "parallel over ssh: $(cat "$T/parallel.err")"
# Each command went through the sshd (one login for the check above).
logins=$(grep -c "Accepted publickey" "$T/ssh/sshd.log")
[ "$logins" -ge 7 ] || fail "only $logins ssh logins: parallel did not use ssh"
[ "$(ls "$T/runs" | grep -c '^run-.*\.tsv$')" -eq 6 ] || fail "not 6 run files: $(ls "$T/runs")"
"$GULLY" sweep --collect "$T/runs" >"$T/collected.tsv" 2>"$T/collect.err" ||
	fail "--collect failed: $(cat "$T/collect.err")"
same_table "$T/local.tsv" "$T/collected.tsv" &&
	echo "ok: parallel over ssh, collected, equals the local sweep" ||
	fail "collected table differs: $(diff "$T/a.cmp" "$T/b.cmp")"

# A missing run is named and marked; the rest still print in grid order.
rm "$T/runs/run-0004.tsv"
"$GULLY" sweep --collect "$T/runs" >"$T/partial.tsv" 2>"$T/collect.err"
[ $? -eq 1 ] || fail "--collect with a missing run did not exit 1"
grep -q "point 4 missing" "$T/collect.err" || fail "missing run not named: $(cat "$T/collect.err")"
[ "$(sed -n 6p "$T/partial.tsv" | cut -f 1-3)" = "0.1	2	missing" ] ||
	fail "missing run not marked: $(sed -n 6p "$T/partial.tsv")"
[ "$(grep -vc missing "$T/partial.tsv")" -eq 6 ] || fail "the other rows are not all there"

# ---- a Slurm job array
"$GULLY" sweep $grid --emit=slurm --out "$T/slurm" >"$T/job.sh" || fail "--emit=slurm failed"
grep -q '^#SBATCH --array=0-5$' "$T/job.sh" || fail "job array is not 0-5"
grep -q -- '--point "$SLURM_ARRAY_TASK_ID"$' "$T/job.sh" || fail "task does not run its point"
slurm_ran=""
if [ "$(id -u)" -eq 0 ] && command -v sbatch >/dev/null; then
	here=$(cd "$(dirname "$0")" && pwd)
	if sh "$here/slurm-single-node.sh" start "$T/slurmd" 60 >"$T/slurm.log" 2>&1; then
		job=$(. "$T/slurmd/env" && timeout 300 sbatch --parsable --wait "$T/job.sh" \
			2>>"$T/slurm.log") && slurm_ran=yes
		sh "$here/slurm-single-node.sh" stop "$T/slurmd" >>"$T/slurm.log" 2>&1
		[ -n "$slurm_ran" ] && echo "ok: job $job ran under Slurm (slurmctld + slurmd + munged)" ||
			fail "sbatch failed: $(tail -n 5 "$T/slurm.log")"
	else
		echo "note: Slurm did not start within a minute: $(tail -n 2 "$T/slurm.log" | tr '\n' ' ')"
	fi
else
	echo "note: no Slurm to start (needs root and Debian's slurm-wlm and munge)"
fi
if [ -z "$slurm_ran" ]; then
	echo "note: Slurm did not run; running each task's command with its index instead"
	cmd=$(sed -n 's/^exec //p' "$T/job.sh")
	for i in 0 1 2 3 4 5; do
		SLURM_ARRAY_TASK_ID=$i sh -c "$cmd" >/dev/null || fail "task $i failed"
	done
fi
"$GULLY" sweep --collect "$T/slurm" >"$T/slurm.tsv" || fail "--collect of the job array failed"
same_table "$T/local.tsv" "$T/slurm.tsv" && echo "ok: the job array's table equals the local sweep" ||
	fail "job array table differs: $(diff "$T/a.cmp" "$T/b.cmp")"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
exit 0
