#!/usr/bin/env bash
# A throw-away single-node Slurm cluster on this machine, for tests and
# benchmarks of the gamesweep Slurm scripts (not for production).
#
#   deploy/slurm/local-cluster.sh up DIR     # prints: export SLURM_CONF=DIR/slurm.conf
#   eval "$(deploy/slurm/local-cluster.sh up DIR)"
#   sbatch ...; squeue; sinfo
#   deploy/slurm/local-cluster.sh down DIR   # stops exactly the daemons `up` started
#
# `up` (as root) installs Debian's slurm-wlm and munge with apt-get if they are
# missing, writes DIR/slurm.conf, starts munged (as user munge, socket in
# DIR/munge), slurmctld and slurmd (both as root, state, spool, logs and pid
# files in DIR), records the three PIDs in DIR/pids and waits until `sinfo`
# shows the node idle. `down` cancels this cluster's jobs, then sends TERM to
# the recorded PIDs and KILL to any still alive after 10 s.
#
# Environment: LOCAL_SLURM_CPUS (CPUs the node offers; default: this
# machine's cores; more than the real count is allowed and oversubscribes),
# LOCAL_SLURM_WAIT (seconds `up` waits for the node, default 60),
# LOCAL_SLURM_CRED_EXPIRE (AuthInfo cred_expire, default 120 s as in Slurm;
# a requeued job waits that long + 1 s before it may start again).
set -euo pipefail

die() {
	echo "local-cluster.sh: $*" >&2
	exit 1
}

usage() {
	sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
}

# Is PID (a number) alive?
alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }

# A TCP port on 127.0.0.1 nobody listens on (probes with bash's /dev/tcp).
free_port() {
	local p
	for _ in $(seq 200); do
		p=$((20000 + RANDOM % 30000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	die "no free TCP port found"
}

# PID from a pid file, waiting up to 10 s for the daemon to write it.
read_pid() {
	local f=$1 name=$2
	for _ in $(seq 100); do
		if [[ -s "$f" ]]; then
			head -n1 "$f"
			return
		fi
		sleep 0.1
	done
	die "$name did not write $f (see its log in $(dirname "$f"))"
}

install_packages() {
	local missing=()
	command -v munged >/dev/null || missing+=(munge)
	command -v slurmctld >/dev/null || missing+=(slurmctld)
	command -v slurmd >/dev/null || missing+=(slurmd)
	command -v sbatch >/dev/null || missing+=(slurm-client)
	[[ ${#missing[@]} -eq 0 ]] && return
	[[ $(id -u) -eq 0 ]] || die "Slurm/munge not installed (${missing[*]}) and not root to install them"
	command -v apt-get >/dev/null || die "Slurm/munge not installed (${missing[*]}) and no apt-get"
	echo "local-cluster.sh: installing slurm-wlm munge with apt-get ..." >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 || die "apt-get update failed"
	apt-get install -y -qq --no-install-recommends slurm-wlm slurmctld slurmd slurm-client munge >&2 ||
		die "apt-get install slurm-wlm munge failed"
}

up() {
	local dir=$1
	[[ $(id -u) -eq 0 ]] || die "must run as root (slurmd runs jobs as root here)"
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	if [[ -f "$dir/pids" ]]; then
		local live=()
		for p in $(cat "$dir/pids"); do alive "$p" && live+=("$p"); done
		if [[ ${#live[@]} -gt 0 ]]; then
			echo "local-cluster.sh: cluster in $dir already running (PIDs ${live[*]}); 'down $dir' first to restart" >&2
			echo "export SLURM_CONF=$dir/slurm.conf"
			return 0
		fi
		rm -f "$dir/pids"
	fi
	install_packages

	local cpus=${LOCAL_SLURM_CPUS:-$(nproc)} wait=${LOCAL_SLURM_WAIT:-60}
	local cred_expire=${LOCAL_SLURM_CRED_EXPIRE:-120}
	[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "LOCAL_SLURM_CPUS must be a positive number, not '$cpus'"
	[[ $cred_expire =~ ^[1-9][0-9]*$ ]] || die "LOCAL_SLURM_CRED_EXPIRE must be a positive number, not '$cred_expire'"

	# munged refuses to run as root, and checks that its directories belong
	# to it and are not writable by others: DIR/munge, owned by munge, and
	# DIR itself searchable by munge.
	id munge >/dev/null 2>&1 || die "no user 'munge' (is the munge package installed?)"
	chmod o+x "$dir"
	runuser -u munge -- test -x "$dir" ||
		die "user munge cannot reach $dir (a parent directory is not searchable by others): use another DIR"
	mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
	chown munge:munge "$dir/munge"
	chmod 0755 "$dir/munge"
	rm -f "$dir/munge/munged.pid" "$dir/slurmctld.pid" "$dir/slurmd.pid"
	local key=/etc/munge/munge.key
	if [[ ! -s $key ]]; then
		command -v mungekey >/dev/null || die "no $key and no mungekey to create it"
		mungekey --create --keyfile="$key" || die "could not create $key"
		chown munge:munge "$key"
		chmod 0400 "$key"
	fi

	local ctld_port slurmd_port
	ctld_port=$(free_port)
	slurmd_port=$(free_port)
	while [[ $slurmd_port == "$ctld_port" ]]; do slurmd_port=$(free_port); done

	cat >"$dir/slurm.conf" <<EOF
# Written by deploy/slurm/local-cluster.sh: a single-node test cluster.
ClusterName=gamesweep-local
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire + 1 s is also how long Slurm holds a requeued job back.
AuthInfo=socket=$dir/munge/munge.socket,cred_expire=$cred_expire
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
# More CPUs than the machine has may be configured (LOCAL_SLURM_CPUS).
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

	# munged as user munge (it refuses root), everything under DIR/munge.
	runuser -u munge -- munged \
		--socket="$dir/munge/munge.socket" \
		--pid-file="$dir/munge/munged.pid" \
		--log-file="$dir/munge/munged.log" \
		--seed-file="$dir/munge/munged.seed" \
		--key-file="$key" ||
		die "munged did not start (see $dir/munge/munged.log)"
	local munge_pid
	munge_pid=$(read_pid "$dir/munge/munged.pid" munged)
	echo "$munge_pid" >"$dir/pids"

	export SLURM_CONF=$dir/slurm.conf
	slurmctld -c -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 ||
		die "slurmctld did not start (see $dir/log/slurmctld.log and slurmctld.out)"
	local ctld_pid
	ctld_pid=$(read_pid "$dir/slurmctld.pid" slurmctld)
	echo "$ctld_pid" >>"$dir/pids"

	# The node is called localhost, not this machine's host name: -N.
	slurmd -N localhost -f "$SLURM_CONF" >"$dir/log/slurmd.out" 2>&1 ||
		die "slurmd did not start (see $dir/log/slurmd.log and slurmd.out)"
	local slurmd_pid
	slurmd_pid=$(read_pid "$dir/slurmd.pid" slurmd)
	echo "$slurmd_pid" >>"$dir/pids"

	local deadline=$((SECONDS + wait)) state=""
	while ((SECONDS < deadline)); do
		state=$(sinfo -h -n localhost -o %t 2>/dev/null || true)
		[[ $state == idle ]] && break
		for p in "$munge_pid" "$ctld_pid" "$slurmd_pid"; do
			alive "$p" || die "daemon PID $p died during start-up (logs in $dir/log, $dir/munge)"
		done
		# A node that was down in a previous run of this DIR: resume it.
		if [[ $state == down* || $state == drain* ]]; then
			scontrol update nodename=localhost state=resume >/dev/null 2>&1 || true
		fi
		sleep 0.5
	done
	[[ $state == idle ]] || die "node not idle after ${wait} s (sinfo state '${state:-none}'; logs in $dir/log)"
	echo "local-cluster.sh: Slurm up in $dir (slurmctld port $ctld_port, slurmd port $slurmd_port, $cpus CPUs)" >&2
	echo "export SLURM_CONF=$dir/slurm.conf"
}

down() {
	local dir=$1
	[[ -d "$dir" ]] || die "no directory $dir"
	[[ -f "$dir/pids" ]] || die "no $dir/pids: no cluster was started in $dir"
	local pids=() p
	for p in $(cat "$dir/pids"); do
		[[ $p =~ ^[0-9]+$ ]] && pids+=("$p")
	done
	# Cancel this cluster's jobs first, so that no job step outlives the
	# daemons (slurmstepd is not a child of slurmd).
	if [[ -f "$dir/slurm.conf" ]] && alive "${pids[1]:-}"; then
		export SLURM_CONF=$dir/slurm.conf
		if [[ -n "$(squeue -h -o %i 2>/dev/null || true)" ]]; then
			scancel --full --quiet $(squeue -h -o %A 2>/dev/null) 2>/dev/null || true
			for _ in $(seq 40); do
				[[ -z "$(squeue -h -o %i 2>/dev/null || true)" ]] && break
				sleep 0.5
			done
		fi
	fi
	# slurmd, then slurmctld, then munged.
	local i
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		alive "${pids[i]}" && kill -TERM "${pids[i]}" 2>/dev/null || true
	done
	for _ in $(seq 100); do
		local any=0
		for p in "${pids[@]}"; do alive "$p" && any=1; done
		[[ $any == 0 ]] && break
		sleep 0.1
	done
	for p in "${pids[@]}"; do
		if alive "$p"; then
			echo "local-cluster.sh: PID $p did not stop after TERM; KILL" >&2
			kill -KILL "$p" 2>/dev/null || true
		fi
	done
	rm -f "$dir/pids"
	echo "local-cluster.sh: Slurm in $dir stopped" >&2
}

case "${1:-}" in
-h | --help | help)
	usage
	;;
up | down)
	[[ $# -eq 2 ]] || die "usage: $0 up|down DIR (--help for more)"
	"$1" "$2"
	;;
*)
	die "usage: $0 up|down DIR (--help for more)"
	;;
esac
