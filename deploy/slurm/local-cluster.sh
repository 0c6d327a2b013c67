#!/usr/bin/env bash
# A throw-away Slurm cluster on this machine, for tests and benchmarks of
# the gamesweep Slurm scripts (not for production): one node, or N nodes,
# each in its own network namespace, and the controller in another.
#
#   deploy/slurm/local-cluster.sh up DIR     # prints: export SLURM_CONF=DIR/slurm.conf
#   eval "$(deploy/slurm/local-cluster.sh up DIR)"
#   sbatch ...; squeue; sinfo
#   deploy/slurm/local-cluster.sh login DIR  # a shell in the cluster's network
#   deploy/slurm/local-cluster.sh login DIR CMD ARGS...  # one command there
#   deploy/slurm/local-cluster.sh down DIR   # stops exactly the daemons `up` started
#
#   deploy/slurm/local-cluster.sh up --nodes 3 DIR   # node1..node3, see below
#   deploy/slurm/local-cluster.sh kill-node DIR node2   # node2 dies
#   deploy/slurm/local-cluster.sh revive-node DIR node2 # node2 boots again
#   deploy/slurm/local-cluster.sh cut-node DIR node2    # node2's link drops
#   deploy/slurm/local-cluster.sh heal-node DIR node2   # and comes back
#
# `up` (as root) installs Debian's slurm-wlm and munge with apt-get if they are
# missing, writes DIR/slurm.conf, starts munged (as user munge, socket in
# DIR/munge), slurmctld and slurmd (both as root, state, spool, logs and pid
# files in DIR), records their PIDs in DIR/pids and waits until `sinfo`
# shows the nodes idle. `down` cancels this cluster's jobs, then sends TERM to
# the recorded PIDs and KILL to any still alive after 10 s.
#
# Network: nothing of the cluster listens in the caller's network namespace.
# A private bridge (no route leads off it: traffic never leaves this machine)
# joins the namespaces `up` creates: the controller's, 10.253.K.1, holding
# slurmctld and munged (munged only has its Unix socket, DIR/munge), and one
# per node, 10.253.K.(10+i), holding that node's slurmd and everything its
# jobs start (the coordinator and the workers too). K comes from DIR, so two
# clusters do not collide. The caller's namespace only gets an address on the
# bridge, 10.253.K.254, from which the Slurm clients (sbatch, squeue, sinfo,
# scontrol, scancel: they only connect out) reach slurmctld; it listens on
# nothing new. `ss -ltn` there shows no Slurm port. Nodes are entered with
# nsenter (`ip netns exec` remounts /sys, where slurmd then finds no cgroup
# filesystem). All namespaces share the filesystem (DIR stands in for a
# cluster filesystem). Each node has its own pid file, spool and log
# (DIR/slurmd-NODE.pid, DIR/spool/NODE, DIR/log/slurmd-NODE.log), its own
# host name (NODE) and /etc/hosts (DIR/hosts, bind-mounted: node names, and
# this machine's host name as the controller's, resolve on every node, as on
# a cluster). Without --nodes the one node is node1.
#
# `login DIR [CMD ARGS...]` is this cluster's login node: it runs CMD (or
# $SHELL) in the controller's network namespace with DIR/hosts over
# /etc/hosts (a private mount namespace) and SLURM_CONF set, so the node
# names in a coordinator's address file (http://node1:7461) resolve and are
# reachable, and `gamesweep serve --listen 0.0.0.0:PORT` started there
# listens inside the cluster (its address file names this machine's host
# name, which resolves to the controller on every node). It execs CMD: its
# PID is the caller's. Only outside `login` are node names unknown.
#
# With --nodes N (2 to 8): nodes node1..nodeN. SlurmdTimeout is short
# (LOCAL_SLURM_SLURMD_TIMEOUT, default 10 s) so a dead node is marked DOWN
# within seconds, and ReturnToService=2 lets a revived node take jobs again.
# `kill-node` is a node's death: its link goes down and every process in its
# namespace (slurmd, slurmstepd, the job's processes) is killed.
# `revive-node` brings the link up and starts its slurmd again. `cut-node`
# only takes the link down (a partition: the node's processes keep running,
# as on a node whose switch port failed); `heal-node` brings it up. `down`
# also kills every process left in the namespaces (the controller's too) and
# removes them and the bridge.
#
# Environment: LOCAL_SLURM_CPUS (CPUs the node offers; default: this
# machine's cores; more than the real count is allowed and oversubscribes),
# LOCAL_SLURM_WAIT (seconds `up` waits for the node, default 60),
# LOCAL_SLURM_CRED_EXPIRE (AuthInfo cred_expire, default 120 s as in Slurm;
# a requeued job waits that long + 1 s before it may start again),
# LOCAL_SLURM_SLURMD_TIMEOUT (SlurmdTimeout with --nodes, default 10 s).
# With --nodes only: LOCAL_SLURM_NODE_CPUS (CPUs per node, one number per
# node separated by commas, e.g. 2,2,2,3 for nodes of different sizes;
# wins over LOCAL_SLURM_CPUS), LOCAL_SLURM_PARTITIONS (partitions instead
# of the one `debug` partition: NAME=NODES entries separated by spaces, the
# first is the default, e.g. "service=node1 compute=node[2-4]").
set -euo pipefail

die() {
	echo "local-cluster.sh: $*" >&2
	exit 1
}

# The comment block at the top of this file (line 2 up to the first line
# that is not a comment).
usage() {
	awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"
}

# Is PID (a number) alive?
alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }

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

# The network of the cluster in DIR: a tag from DIR's path (names of the
# namespaces, bridge and links; the subnet's third byte).
net_tag() { printf '%s' "$1" | sha256sum | cut -c1-6; }
net_k() { echo $((0x$(net_tag "$1" | cut -c1-2) % 250 + 2)); }
ns_name() { echo "gs$(net_tag "$1")-$2"; }
node_addr() { echo "10.253.$(net_k "$1").$((10 + ${2#node}))"; }
# The controller's namespace and address; the caller's address on the bridge.
ctl_ns() { ns_name "$1" ctl; }
ctl_addr() { echo "10.253.$(net_k "$1").1"; }
caller_addr() { echo "10.253.$(net_k "$1").254"; }

# One end of a veth pair on the bridge, the other as eth0 with ADDR in NS.
ns_link() {
	local br=$1 link=$2 ns=$3 addr=$4 what=$5
	ip netns list | grep -qw "$ns" || ip netns add "$ns" || die "cannot create network namespace $ns"
	if ! ip link show "$link" >/dev/null 2>&1; then
		ip link add "$link" type veth peer name eth0 netns "$ns" || die "cannot create the link of $what"
	fi
	ip link set "$link" master "$br" up
	ip -n "$ns" addr replace "$addr/24" dev eth0
	ip -n "$ns" link set lo up
	ip -n "$ns" link set eth0 up
}

# The bridge (with the caller's address), the controller's namespace and one
# namespace per node, each with its own address.
net_up() {
	local dir=$1 nodes=$2 tag br i ns host
	command -v ip >/dev/null || die "the local cluster needs iproute2 (ip)"
	command -v nsenter >/dev/null || die "the local cluster needs nsenter (util-linux)"
	command -v unshare >/dev/null || die "the local cluster needs unshare (util-linux)"
	tag=$(net_tag "$dir")
	br="gsb$tag"
	ip link show "$br" >/dev/null 2>&1 || ip link add "$br" type bridge || die "cannot create bridge $br (network namespaces need root and CAP_NET_ADMIN)"
	# Only this address is the caller's: Slurm's clients connect out from it.
	ip addr flush dev "$br"
	ip addr add "$(caller_addr "$dir")/24" dev "$br"
	ip link set "$br" up
	echo "$br" >"$dir/net"
	host=$(hostname -s)
	{
		echo "127.0.0.1 localhost"
		# This machine's name is the controller's (SlurmctldHost), and the
		# host name `gamesweep serve` advertises when started with `login`.
		echo "$(ctl_addr "$dir") $host"
		[[ $(hostname) == "$host" ]] || echo "$(ctl_addr "$dir") $(hostname)"
		for ((i = 1; i <= nodes; i++)); do echo "$(node_addr "$dir" "node$i") node$i"; done
	} >"$dir/hosts"
	ns=$(ctl_ns "$dir")
	ns_link "$br" "v${tag}c" "$ns" "$(ctl_addr "$dir")" "the controller"
	echo "ctl $ns" >>"$dir/net"
	for ((i = 1; i <= nodes; i++)); do
		ns=$(ns_name "$dir" "node$i")
		ns_link "$br" "v${tag}n$i" "$ns" "$(node_addr "$dir" "node$i")" "node$i"
		echo "ns $ns" >>"$dir/net"
	done
}

# Every process in namespace NS, killed (a node's death, or `down`).
kill_ns() {
	local ns=$1 p
	for _ in $(seq 20); do
		local pids
		pids=$(ip netns pids "$ns" 2>/dev/null || true)
		[[ -z $pids ]] && return 0
		for p in $pids; do kill -KILL "$p" 2>/dev/null || true; done
		sleep 0.1
	done
	echo "local-cluster.sh: processes still in $ns after 20 rounds of KILL: $(ip netns pids "$ns" | tr '\n' ' ')" >&2
}

# slurmd of NODE in its namespace; prints its PID.
start_slurmd() {
	local dir=$1 node=$2 ns
	ns=$(ns_name "$dir" "$node")
	rm -f "$dir/slurmd-$node.pid"
	mkdir -p "$dir/spool/$node"
	# Its own host name and /etc/hosts (DIR/hosts: every node's name and
	# address), as on a cluster where node names resolve; the rest of the
	# filesystem is shared.
	# shellcheck disable=SC2016 # $1.. are the inner shell's arguments
	nsenter --net="/run/netns/$ns" unshare --mount --uts --propagation private \
		sh -c 'mount --bind "$1" /etc/hosts && hostname "$2" && exec slurmd -N "$2" -f "$3"' \
		sh "$dir/hosts" "$node" "$dir/slurm.conf" >"$dir/log/slurmd-$node.out" 2>&1 ||
		die "slurmd of $node did not start (see $dir/log/slurmd-$node.log and slurmd-$node.out)"
	read_pid "$dir/slurmd-$node.pid" "slurmd of $node"
}

net_down() {
	local dir=$1 line
	[[ -f "$dir/net" ]] || return 0
	while read -r line; do
		case $line in
		ns\ * | ctl\ *)
			kill_ns "${line#* }"
			ip netns del "${line#* }" 2>/dev/null || true
			;;
		esac
	done <"$dir/net"
	ip link del "$(head -n1 "$dir/net")" 2>/dev/null || true
	rm -f "$dir/net"
}

# NODE dies: its link goes down and everything in its namespace is killed.
kill_node() {
	local dir=$1 node=$2 ns
	[[ -f "$dir/net" ]] || die "no cluster in $dir (up first)"
	ns=$(ns_name "$dir" "$node")
	grep -qx "ns $ns" "$dir/net" || die "no node $node in $dir"
	ip link set "v$(net_tag "$dir")n${node#node}" down
	kill_ns "$ns"
	echo "local-cluster.sh: $node killed (link down, every process in $ns killed)" >&2
}

# NODE is cut off: its link goes down, its processes keep running.
cut_node() {
	local dir=$1 node=$2 ns
	[[ -f "$dir/net" ]] || die "no cluster in $dir (up first)"
	ns=$(ns_name "$dir" "$node")
	grep -qx "ns $ns" "$dir/net" || die "no node $node in $dir"
	ip link set "v$(net_tag "$dir")n${node#node}" down
	echo "local-cluster.sh: $node cut off (link down, its processes still run)" >&2
}

# A cut-off NODE's link comes back.
heal_node() {
	local dir=$1 node=$2 ns
	[[ -f "$dir/net" ]] || die "no cluster in $dir (up first)"
	ns=$(ns_name "$dir" "$node")
	grep -qx "ns $ns" "$dir/net" || die "no node $node in $dir"
	ip link set "v$(net_tag "$dir")n${node#node}" up
	echo "local-cluster.sh: $node link up again" >&2
}

# NODE boots again: link up, slurmd started.
revive_node() {
	local dir=$1 node=$2 ns pid
	[[ -f "$dir/net" ]] || die "no cluster in $dir (up first)"
	ns=$(ns_name "$dir" "$node")
	grep -qx "ns $ns" "$dir/net" || die "no node $node in $dir"
	ip link set "v$(net_tag "$dir")n${node#node}" up
	export SLURM_CONF=$dir/slurm.conf
	pid=$(start_slurmd "$dir" "$node") || exit 1
	echo "$pid" >>"$dir/pids"
	echo "local-cluster.sh: $node revived (slurmd PID $pid)" >&2
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
	local dir=$1 nodes=${2:-0}
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
	# CPUs and partitions per node (--nodes only). Without --nodes, one
	# node: node1.
	local count=$((nodes > 0 ? nodes : 1))
	local node_cpus=() partitions=() entry i
	read -r -a partitions <<<"${LOCAL_SLURM_PARTITIONS:-}"
	if [[ -n ${LOCAL_SLURM_NODE_CPUS:-} ]]; then
		((nodes > 0)) || die "LOCAL_SLURM_NODE_CPUS needs --nodes N"
		IFS=, read -r -a node_cpus <<<"$LOCAL_SLURM_NODE_CPUS"
		[[ ${#node_cpus[@]} -eq $nodes ]] ||
			die "LOCAL_SLURM_NODE_CPUS='$LOCAL_SLURM_NODE_CPUS' names ${#node_cpus[@]} nodes' CPUs, not $nodes (one number per node, separated by commas)"
		for entry in "${node_cpus[@]}"; do
			[[ $entry =~ ^[1-9][0-9]*$ ]] || die "LOCAL_SLURM_NODE_CPUS: '$entry' is not a positive number"
		done
	else
		for ((i = 0; i < count; i++)); do node_cpus+=("$cpus"); done
	fi
	if [[ ${#partitions[@]} -gt 0 ]]; then
		((nodes > 0)) || die "LOCAL_SLURM_PARTITIONS needs --nodes N"
		local part_re='^[A-Za-z0-9_-]+=[][A-Za-z0-9_,-]+$'
		for entry in "${partitions[@]}"; do
			[[ $entry =~ $part_re ]] ||
				die "LOCAL_SLURM_PARTITIONS: '$entry' is not NAME=NODES (e.g. service=node1 compute=node[2-4])"
		done
	fi
	local slurmd_timeout=${LOCAL_SLURM_SLURMD_TIMEOUT:-10}
	[[ $slurmd_timeout =~ ^[1-9][0-9]*$ ]] || die "LOCAL_SLURM_SLURMD_TIMEOUT must be a positive number, not '$slurmd_timeout'"
	net_up "$dir" "$count"
	chown munge:munge "$dir/munge"
	chmod 0755 "$dir/munge"
	rm -f "$dir/munge/munged.pid" "$dir/slurmctld.pid"
	local key=/etc/munge/munge.key
	if [[ ! -s $key ]]; then
		command -v mungekey >/dev/null || die "no $key and no mungekey to create it"
		mungekey --create --keyfile="$key" || die "could not create $key"
		chown munge:munge "$key"
		chmod 0400 "$key"
	fi

	# Every daemon has a network namespace of its own: Slurm's usual ports.
	local ctld_port=6817 slurmd_port=6818 ctl_ns
	ctl_ns=$(ctl_ns "$dir")

	# slurmctld must run on the host SlurmctldHost names: this one (the
	# controller's namespace has this machine's host name).
	local ctl_host node_lines="" node_names i timeout_line=""
	ctl_host="$(hostname -s)($(ctl_addr "$dir"))"
	for ((i = 1; i <= count; i++)); do
		node_lines+="NodeName=node$i NodeAddr=$(node_addr "$dir" "node$i") CPUs=${node_cpus[i - 1]} State=UNKNOWN
"
	done
	if ((nodes > 0)); then
		node_names="node[1-$nodes]"
		timeout_line="# A node that stops answering is DOWN after this many seconds.
SlurmdTimeout=$slurmd_timeout"
	else
		node_names=node1
	fi
	local partition_lines="PartitionName=debug Nodes=$node_names Default=YES MaxTime=INFINITE State=UP" entry default=YES
	if [[ ${#partitions[@]} -gt 0 ]]; then
		partition_lines=""
		for entry in "${partitions[@]}"; do
			partition_lines+="PartitionName=${entry%%=*} Nodes=${entry#*=} Default=$default MaxTime=INFINITE State=UP
"
			default=NO
		done
	fi
	cat >"$dir/slurm.conf" <<EOF
# Written by deploy/slurm/local-cluster.sh: a test cluster ($(((nodes > 0)) && echo "$nodes nodes" || echo "one node")).
# slurmctld runs in network namespace $ctl_ns, each node's slurmd in its own.
ClusterName=gamesweep-local
SlurmctldHost=$ctl_host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire + 1 s is also how long Slurm holds a requeued job back.
AuthInfo=socket=$dir/munge/munge.socket,cred_expire=$cred_expire
StateSaveLocation=$dir/state
SlurmctldPidFile=$dir/slurmctld.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdSpoolDir=$dir/spool/%n
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmdLogFile=$dir/log/slurmd-%n.log
$timeout_line
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
$node_lines
$partition_lines
EOF

	# munged as user munge (it refuses root), everything under DIR/munge;
	# in the controller's namespace (it opens no TCP socket anyway).
	nsenter --net="/run/netns/$ctl_ns" runuser -u munge -- munged \
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
	nsenter --net="/run/netns/$ctl_ns" slurmctld -c -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 ||
		die "slurmctld did not start (see $dir/log/slurmctld.log and slurmctld.out)"
	local ctld_pid
	ctld_pid=$(read_pid "$dir/slurmctld.pid" slurmctld)
	echo "$ctld_pid" >>"$dir/pids"

	local daemons=("$munge_pid" "$ctld_pid") p
	for ((i = 1; i <= count; i++)); do
		p=$(start_slurmd "$dir" "node$i") || exit 1
		daemons+=("$p")
		echo "$p" >>"$dir/pids"
	done

	local deadline=$((SECONDS + wait)) states=""
	while ((SECONDS < deadline)); do
		# One state per node: all idle, or keep waiting.
		states=$(sinfo -h -N -n "$node_names" -o %t 2>/dev/null | sort -u | tr '\n' ' ' || true)
		[[ $states == "idle " ]] && break
		for p in "${daemons[@]}"; do
			alive "$p" || die "daemon PID $p died during start-up (logs in $dir/log, $dir/munge)"
		done
		# A node that was down in a previous run of this DIR: resume it.
		if [[ $states == *down* || $states == *drain* ]]; then
			scontrol update nodename="$node_names" state=resume >/dev/null 2>&1 || true
		fi
		sleep 0.5
	done
	[[ $states == "idle " ]] || die "nodes not idle after ${wait} s (sinfo states '${states:-none}'; logs in $dir/log)"
	echo "local-cluster.sh: Slurm up in $dir (slurmctld on $(ctl_addr "$dir"):$ctld_port in namespace $ctl_ns, slurmd port $slurmd_port, CPUs per node ${node_cpus[*]}, nodes $node_names${LOCAL_SLURM_PARTITIONS:+, partitions $LOCAL_SLURM_PARTITIONS}; 'login $dir' for a shell in the cluster's network)" >&2
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
	# Job processes on nodes that could not be reached, and the namespaces.
	net_down "$dir"
	rm -f "$dir/pids"
	echo "local-cluster.sh: Slurm in $dir stopped" >&2
}

# A command (or $SHELL) in the controller's network namespace with DIR/hosts
# over /etc/hosts and SLURM_CONF set: the cluster's login node. Execs it.
login() {
	local dir=$1 ns p any=0
	shift
	[[ $(id -u) -eq 0 ]] || die "login must run as root (it enters the cluster's network namespace)"
	[[ -f "$dir/net" && -f "$dir/pids" ]] || die "no cluster in $dir (up first)"
	for p in $(cat "$dir/pids"); do alive "$p" && any=1; done
	[[ $any == 1 ]] || die "the cluster in $dir is not running (up first)"
	ns=$(sed -n 's/^ctl //p' "$dir/net")
	[[ -n $ns && -e /run/netns/$ns ]] || die "no controller namespace in $dir/net (a cluster started by an older local-cluster.sh: down and up again)"
	[[ $# -gt 0 ]] || set -- "${SHELL:-/bin/bash}"
	export SLURM_CONF=$dir/slurm.conf
	# shellcheck disable=SC2016 # $1 is the inner shell's argument
	exec nsenter --net="/run/netns/$ns" unshare --mount --propagation private \
		sh -c 'mount --bind "$1" /etc/hosts && shift && exec "$@"' sh "$dir/hosts" "$@"
}

case "${1:-}" in
-h | --help | help)
	usage
	;;
up)
	if [[ ${2:-} == --nodes ]]; then
		[[ $# -eq 4 ]] || die "usage: $0 up [--nodes N] DIR (--help for more)"
		[[ $3 =~ ^[2-8]$ ]] || die "--nodes must be 2 to 8, not '$3'"
		up "$4" "$3"
	else
		[[ $# -eq 2 ]] || die "usage: $0 up [--nodes N] DIR (--help for more)"
		up "$2"
	fi
	;;
down)
	[[ $# -eq 2 ]] || die "usage: $0 down DIR (--help for more)"
	down "$2"
	;;
login)
	[[ $# -ge 2 ]] || die "usage: $0 login DIR [CMD ARGS...] (--help for more)"
	[[ -d $2 ]] || die "no directory $2"
	dir=$(cd "$2" && pwd)
	shift 2
	login "$dir" "$@"
	;;
kill-node | revive-node | cut-node | heal-node)
	[[ $# -eq 3 ]] || die "usage: $0 $1 DIR NODE (--help for more)"
	[[ -d $2 ]] || die "no directory $2"
	"${1/-/_}" "$(cd "$2" && pwd)" "$3"
	;;
*)
	die "usage: $0 up [--nodes N] DIR | down DIR | login DIR [CMD ARGS...] | kill-node|revive-node|cut-node|heal-node DIR NODE (--help for more)"
	;;
esac
