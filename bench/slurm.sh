#!/usr/bin/env bash
# Slurm scaling benchmark: wall time of `launch uvg --max-n 10 --shards 256`
# run by workers submitted through deploy/slurm/gamesweep-workers.sbatch, with
# 1 and with 2 array tasks of 1 CPU and 1 thread each, timed from sbatch to
# the sweep's state being "done" (so it includes Slurm's scheduling and the
# workers' start-up). Prints both and the speed-up (target: at least 1.8x on
# an otherwise idle machine with 2 cores).
#
# Needs root: it brings up a private single-node cluster with
# deploy/slurm/local-cluster.sh (installing slurm-wlm and munge with apt-get
# if missing) and takes it down again. The coordinator runs directly on
# 127.0.0.1. The machine may be shared: the load average is printed too.
# Usage: bench/slurm.sh [REPS=1]
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-1}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release -q -p gamesweep-coordinator
G=$PWD/target/release/gamesweep
W=$PWD/target/release/gamesweep-worker
CLUSTER=$PWD/deploy/slurm/local-cluster.sh
SCRIPT=$PWD/deploy/slurm/gamesweep-workers.sbatch
T=$(mktemp -d)
chmod 711 "$T"   # munged (user munge) must reach $T/slurm
SERVE=
cleanup() {
  [ -z "$SERVE" ] || kill "$SERVE" 2>/dev/null || true
  [ ! -f "$T/slurm/pids" ] || "$CLUSTER" down "$T/slurm" || true
  rm -rf "$T"
}
trap cleanup EXIT

eval "$(LOCAL_SLURM_CPUS=$(nproc) "$CLUSTER" up "$T/slurm")"
export SLURM_CONF
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/token"
export GAMESWEEP_TOKEN_FILE=$T/token GAMESWEEP_WORKER_BIN=$W GAMESWEEP_THREADS=1
unset GAMESWEEP_COORDINATOR_FILE
# Workers that see no sweep at start wait 1 s, not 60.
EXTRA=(--idle-grace 1)

now() { date +%s.%N; }

# Wall seconds from sbatch to "done" for $1 workers, on a fresh coordinator.
one_run() {
  local workers=$1 name=$2 port t0 t1 job
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  rm -rf "$T/store"
  "$G" serve --listen 127.0.0.1:"$port" --store "$T/store" --token-file "$T/token" 2>"$T/serve-$name.log" &
  SERVE=$!
  for _ in $(seq 100); do (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  export GAMESWEEP_COORDINATOR=http://127.0.0.1:$port
  "$G" launch uvg --max-n 10 --shards 256 --name "$name" >/dev/null 2>&1
  t0=$(now)
  job=$(sbatch --parsable --array=0-$((workers - 1)) --cpus-per-task=1 \
    --output="$T/$name-%A_%a.log" "$SCRIPT" "${EXTRA[@]}")
  job=${job%%;*}
  until [[ $("$G" status "$name" --json) == *'"state":"done"'* ]]; do
    sleep 0.2
    if [ -z "$(squeue -h -j "$job" -o %i 2>/dev/null)" ] &&
      [[ $("$G" status "$name" --json) != *'"state":"done"'* ]]; then
      echo "bench/slurm.sh: workers of job $job ended before the sweep was done:" >&2
      tail -n 5 "$T/$name"-*.log >&2
      exit 1
    fi
  done
  t1=$(now)
  # Workers exit by themselves once idle; do not wait for a long idle grace.
  for _ in $(seq 100); do [ -z "$(squeue -h -j "$job" -o %i)" ] && break; sleep 0.2; done
  scancel "$job" 2>/dev/null || true
  for _ in $(seq 100); do [ -z "$(squeue -h -j "$job" -o %i)" ] && break; sleep 0.2; done
  kill "$SERVE"; wait "$SERVE" || true; SERVE=
  echo "$t1 - $t0" | bc -l | xargs printf '%.1f\n'
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "== uvg --max-n 10 --shards 256 through Slurm ($(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg))"
: >"$T/w1"; : >"$T/w2"
for i in $(seq "$REPS"); do
  one_run 1 "w1r$i" >>"$T/w1"
  one_run 2 "w2r$i" >>"$T/w2"
done
W1=$(median <"$T/w1"); W2=$(median <"$T/w2")
echo "1 task  x 1 CPU: $(xargs printf '%ss ' <"$T/w1")(median ${W1}s)"
echo "2 tasks x 1 CPU: $(xargs printf '%ss ' <"$T/w2")(median ${W2}s)"
echo "speed-up: $(echo "$W1 / $W2" | bc -l | xargs printf '%.2f')x (load average now $(cut -d' ' -f1-3 /proc/loadavg))"
