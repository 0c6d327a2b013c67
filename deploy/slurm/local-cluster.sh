#!/usr/bin/env bash
# A throw-away Slurm cluster on this machine, for tests and benchmarks of
# the gamesweep Slurm scripts (not for production): one node, or N nodes each
# in its own network namespace.
#
#   deploy/slurm/local-cluster.sh up DIR     # prints: export SLURM_CONF=DIR/slurm.conf
#   eval "$(deploy/slurm/local-cluster.sh up DIR)"
#   sbatch ...; squeue; sinfo
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
# files in DIR), records the three PIDs in DIR/pids and waits until `sinfo`
# shows the node idle. `down` cancels this cluster's jobs, then sends TERM to
# the recorded PIDs and KILL to any still alive after 10 s.
#
# With --nodes N (2 to 8): nodes node1..nodeN, each a slurmd in its own
# network namespace (entered with nsenter: `ip netns exec` remounts /sys,
# where slurmd then finds no cgroup filesystem) with its own address
# 10.253.K.(10+i) on a private bridge in this namespace; slurmctld listens on
# the bridge's 10.253.K.1 (K from DIR, so two clusters do not collide). No
# route leads off the bridge: traffic never leaves this machine. All nodes
# share the filesystem (DIR stands in for a cluster filesystem); each has its
# own pid file, spool and log (DIR/slurmd-NODE.pid, DIR/spool/NODE,
# DIR/log/slurmd-NODE.log), and its own host name (NODE) and /etc/hosts
# (DIR/hosts, bind-mounted: node names resolve on every node, as on a
# cluster). SlurmdTimeout is short (LOCAL_SLURM_SLURMD_TIMEOUT,
# default 10 s) so a dead node is marked DOWN within seconds, and
# ReturnToService=2 lets a revived node take jobs again. `kill-node` is a
# node's death: its link goes down and every process in its namespace
# (slurmd, slurmstepd, the job's processes) is killed. `revive-node` brings
# the link up and starts its slurmd again. `cut-node` only takes the link
# down (a partition: the node's processes keep running, as on a node whose
# switch port failed); `heal-node` brings it up. `down` also kills every process
# left in the namespaces and removes them and the bridge.
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

usage() {
	sed -n '2,55p' "$0" | sed 's/^# \{0,1\}//'
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

# The network of a multi-node cluster in DIR: a tag from DIR's path (names
# of the namespaces, bridge and links; the subnet's third byte).
net_tag() { printf '%s' "$1" | sha256sum | cut -c1-6; }
net_k() { echo $((0x$(net_tag "$1" | cut -c1-2) % 250 + 2)); }
ns_name() { echo "gs$(net_tag "$1")-$2"; }
node_addr() { echo "10.253.$(net_k "$1").$((10 + ${2#node}))"; }
ctl_addr() { echo "10.253.$(net_k "$1").1"; }

# The bridge and one namespace per node, each with its own address.
net_up() {
	local dir=$1 nodes=$2 tag br i ns
	command -v ip >/dev/null || die "--nodes needs iproute2 (ip)"
	command -v nsenter >/dev/null || die "--nodes needs nsenter (util-linux)"
	tag=$(net_tag "$dir")
	br="gsb$tag"
	ip link show "$br" >/dev/null 2>&1 || ip link add "$br" type bridge || die "cannot create bridge $br (network namespaces need root and CAP_NET_ADMIN)"
	ip addr replace "$(ctl_addr "$dir")/24" dev "$br"
	ip link set "$br" up
	echo "$br" >"$dir/net"
	{
		echo "127.0.0.1 localhost"
		echo "$(ctl_addr "$dir") $(hostname -s)"
		for ((i = 1; i <= nodes; i++)); do echo "$(node_addr "$dir" "node$i") node$i"; done
	} >"$dir/hosts"
	for ((i = 1; i <= nodes; i++)); do
		ns=$(ns_name "$dir" "node$i")
		ip netns list | grep -qw "$ns" || ip netns add "$ns" || die "cannot create network namespace $ns"
		echo "ns $ns" >>"$dir/net"
		if ! ip link show "v${tag}n$i" >/dev/null 2>&1; then
			ip link add "v${tag}n$i" type veth peer name eth0 netns "$ns" || die "cannot create the link of node$i"
		fi
		ip link set "v${tag}n$i" master "$br" up
		ip -n "$ns" addr replace "$(node_addr "$dir" "node$i")/24" dev eth0
		ip -n "$ns" link set lo up
		ip -n "$ns" link set eth0 up
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
		ns\ *)
			kill_ns "${line#ns }"
			ip netns del "${line#ns }" 2>/dev/null || true
			;;
		esac
	done <"$dir/net"
	ip link del "$(head -n1 "$dir/net")" 2>/dev/null || true
	rm -f "$dir/net"
}

# NODE dies: its link goes down and everything in its namespace is killed.
kill_node() {
	local dir=$1 node=$2 ns
	[[ -f "$dir/net" ]] || die "no multi-node cluster in $dir (up --nodes N first)"
	ns=$(ns_name "$dir" "$node")
	grep -qx "ns $ns" "$dir/net" || die "no node $node in $dir"
	ip link set "v$(net_tag "$dir")n${node#node}" down
	kill_ns "$ns"
	echo "local-cluster.sh: $node killed (link down, every process in $ns killed)" >&2
}

# NODE is cut off: its link goes down, its processes keep running.
cut_node() {
	local dir=$1 node=$2 ns
	[[ -f "$dir/net" ]] || die "no multi-node cluster in $dir (up --nodes N first)"
	ns=$(ns_name "$dir" "$node")
	grep -qx "ns $ns" "$dir/net" || die "no node $node in $dir"
	ip link set "v$(net_tag "$dir")n${node#node}" down
	echo "local-cluster.sh: $node cut off (link down, its processes still run)" >&2
}

# A cut-off NODE's link comes back.
heal_node() {
	local dir=$1 node=$2 ns
	[[ -f "$dir/net" ]] || die "no multi-node cluster in $dir (up --nodes N first)"
	ns=$(ns_name "$dir" "$node")
	grep -qx "ns $ns" "$dir/net" || die "no node $node in $dir"
	ip link set "v$(net_tag "$dir")n${node#node}" up
	echo "local-cluster.sh: $node link up again" >&2
}

# NODE boots again: link up, slurmd started.
revive_node() {
	local dir=$1 node=$2 ns pid
	[[ -f "$dir/net" ]] || die "no multi-node cluster in $dir (up --nodes N first)"
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
	# CPUs and partitions per node (--nodes only).
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
		for ((i = 0; i < nodes; i++)); do node_cpus+=("$cpus"); done
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
	if ((nodes > 0)); then net_up "$dir" "$nodes"; fi
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

	local ctl_host="localhost(127.0.0.1)" slurmd_files node_lines node_names="localhost" i
	slurmd_files="SlurmdSpoolDir=$dir/spool
SlurmdPidFile=$dir/slurmd.pid
SlurmdLogFile=$dir/log/slurmd.log"
	node_lines="NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN"
	if ((nodes > 0)); then
		# slurmctld must run on the host SlurmctldHost names: this one.
		ctl_host="$(hostname -s)($(ctl_addr "$dir"))"
		slurmd_files="SlurmdSpoolDir=$dir/spool/%n
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmdLogFile=$dir/log/slurmd-%n.log
# A node that stops answering is DOWN after this many seconds.
SlurmdTimeout=$slurmd_timeout"
		node_lines=""
		for ((i = 1; i <= nodes; i++)); do
			node_lines+="NodeName=node$i NodeAddr=$(node_addr "$dir" "node$i") CPUs=${node_cpus[i - 1]} State=UNKNOWN
"
		done
		node_names="node[1-$nodes]"
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
$slurmd_files
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

	local daemons=("$munge_pid" "$ctld_pid") p
	if ((nodes > 0)); then
		for ((i = 1; i <= nodes; i++)); do
			p=$(start_slurmd "$dir" "node$i") || exit 1
			daemons+=("$p")
			echo "$p" >>"$dir/pids"
		done
	else
		# The node is called localhost, not this machine's host name: -N.
		slurmd -N localhost -f "$SLURM_CONF" >"$dir/log/slurmd.out" 2>&1 ||
			die "slurmd did not start (see $dir/log/slurmd.log and slurmd.out)"
		daemons+=("$(read_pid "$dir/slurmd.pid" slurmd)")
		echo "${daemons[-1]}" >>"$dir/pids"
	fi

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
	echo "local-cluster.sh: Slurm up in $dir (slurmctld port $ctld_port, slurmd port $slurmd_port, $( ((nodes > 0)) && echo "CPUs per node ${node_cpus[*]}" || echo "$cpus CPUs"), nodes $node_names${LOCAL_SLURM_PARTITIONS:+, partitions $LOCAL_SLURM_PARTITIONS})" >&2
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
kill-node | revive-node | cut-node | heal-node)
	[[ $# -eq 3 ]] || die "usage: $0 $1 DIR NODE (--help for more)"
	[[ -d $2 ]] || die "no directory $2"
	"${1/-/_}" "$(cd "$2" && pwd)" "$3"
	;;
*)
	die "usage: $0 up [--nodes N] DIR | down DIR | kill-node|revive-node|cut-node|heal-node DIR NODE (--help for more)"
	;;
esac
