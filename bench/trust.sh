#!/usr/bin/env bash
# Overhead of the trust features on a real sweep: `gamesweep serve` + 2
# worker processes (1 thread each) on `uvg --max-n N`, in three
# configurations, interleaved, REPS times each:
#   base   plain HTTP on loopback, --replicate-fraction 0
#   verify plain HTTP, launch's default --replicate-fraction (1 %)
#   tls    TLS (a self-signed certificate made here with openssl), --replicate-fraction 0
# Every configuration has tokens with roles (admin, worker) and validates
# every result. Reports the wall time from launch until both workers
# (--exit-when-idle) have exited, and the CPU seconds of the workers and of
# the coordinator; checks that every run's results.json is identical.
# Usage: bench/trust.sh [N=9] [REPS=3] [SHARDS (default: the kind's own plan)]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-9}
REPS=${2:-3}
SHARDS=${3:+--shards $3}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release -q -p gamesweep-coordinator --bins
G=$PWD/target/release/gamesweep
W=$PWD/target/release/gamesweep-worker
T=$(mktemp -d)
SERVE=
trap '[ -n "$SERVE" ] && kill $SERVE 2>/dev/null; rm -rf "$T"' EXIT
echo admin-token >"$T/admin"
echo worker-token >"$T/worker"
# A CA, and the coordinator's certificate signed by it (rustls refuses a CA
# certificate as the server's own).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -subj /CN=bench-ca -keyout "$T/ca.key" -out "$T/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=localhost \
  -keyout "$T/key.pem" -out "$T/cert.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$T/ext"
openssl x509 -req -in "$T/cert.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" -CAcreateserial -days 2 \
  -extfile "$T/ext" -out "$T/cert.pem" 2>/dev/null

one() { # one run of configuration $1 (label $2): prints "wall cpu_workers cpu_coord"
  local cfg=$1 label=$2 f=0 tls_serve=() tls_client=()
  [ "$cfg" = verify ] && f=0.01
  if [ "$cfg" = tls ]; then
    tls_serve=(--tls-cert "$T/cert.pem" --tls-key "$T/key.pem")
    tls_client=(--tls-ca "$T/ca.pem")
  fi
  rm -rf "$T/store" "$T/url"
  "$G" serve --listen 127.0.0.1:0 --store "$T/store" --address-file "$T/url" \
    --token-file "$T/admin" --worker-token-file "$T/worker" "${tls_serve[@]}" 2>"$T/serve.log" &
  SERVE=$!
  for _ in $(seq 200); do [ -s "$T/url" ] && break; sleep 0.05; done
  local url; url=$(cat "$T/url")
  local t0; t0=$(date +%s.%N)
  "$G" launch uvg --max-n "$N" $SHARDS --replicate-fraction "$f" --name b --coordinator "$url" \
    --token-file "$T/admin" "${tls_client[@]}" >/dev/null
  /usr/bin/time -f "%U %S" -o "$T/w1.time" "$W" --coordinator "$url" --token-file "$T/worker" "${tls_client[@]}" \
    --id w1 --threads 1 --exit-when-idle 2>"$T/w1.log" &
  local p1=$!
  /usr/bin/time -f "%U %S" -o "$T/w2.time" "$W" --coordinator "$url" --token-file "$T/worker" "${tls_client[@]}" \
    --id w2 --threads 1 --exit-when-idle 2>"$T/w2.log" &
  local p2=$!
  wait $p1 $p2
  local t1; t1=$(date +%s.%N)
  "$G" report b --coordinator "$url" --token-file "$T/admin" "${tls_client[@]}" --out "$T/out-$label" 2>"$T/report.log"
  grep -h "verification" "$T/report.log" >&2 || true
  local cw cc
  # the coordinator's user + system CPU so far (fields 14, 15 of its stat, in clock ticks)
  cc=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.3f", ($14 + $15) / hz}' /proc/$SERVE/stat)
  kill -TERM $SERVE; wait $SERVE || true; SERVE=
  cw=$(cat "$T/w1.time" "$T/w2.time" | awk '{s += $1 + $2} END {printf "%.3f", s}')
  echo "$(echo "$t1 - $t0" | bc -l | xargs printf '%.3f') $cw $cc"
  [ -f "$T/ref.json" ] || cp "$T/out-$label/results.json" "$T/ref.json"
  cmp -s "$T/ref.json" "$T/out-$label/results.json" || { echo "results.json differs" >&2; exit 1; }
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
CFGS=(base verify tls)
for c in "${CFGS[@]}"; do : >"$T/$c"; done
for i in $(seq "$REPS"); do
  for c in "${CFGS[@]}"; do one "$c" "$c-$i" >>"$T/$c"; done
done
echo "== uvg --max-n $N, serve + 2 workers x 1 thread, $REPS runs each (interleaved); results.json identical in every run"
for c in "${CFGS[@]}"; do
  echo "$c: wall $(cut -d' ' -f1 "$T/$c" | xargs) | worker cpu $(cut -d' ' -f2 "$T/$c" | xargs) | coordinator cpu $(cut -d' ' -f3 "$T/$c" | xargs)"
done
for c in verify tls; do
  for k in 1 2 3; do # wall, worker CPU, coordinator CPU
    a=$(cut -d' ' -f$k "$T/base" | median); b=$(cut -d' ' -f$k "$T/$c" | median)
    echo "$c vs base, $(echo "wall worker-cpu coordinator-cpu" | cut -d' ' -f$k) medians: $a -> $b ($(echo "($b / $a - 1) * 100" | bc -l | xargs printf '%+.1f') %)"
  done
done
