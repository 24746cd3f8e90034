#!/usr/bin/env bash
# Several instances on one PostgreSQL database behind HAProxy: the move load
# (examples/load.rs) through the balancer with 1, 2 and 3 `xiangqi serve`
# instances, and where the CPU went (PostgreSQL, the instances, HAProxy, the
# load itself) while the moves were made.
#
#   crates/xiangqi-server/bench/instances.sh [GAMES] [PLIES] [MAX_INSTANCES]
#
# Environment: XIANGQI_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:55432,
# a cluster user that may create databases), CARGO_TARGET_DIR. Installs
# haproxy with apt-get when it is missing (needs root). Each count gets a
# fresh database, xiangqi_bench_instances.
set -euo pipefail

games=${1:-50}
plies=${2:-40}
most=${3:-3}
pg=${XIANGQI_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:55432}
db=xiangqi_bench_instances
root=$(cd "$(dirname "$0")/../../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
work=$(mktemp -d /tmp/xiangqi-instances.XXXXXX)
lb_port=${XIANGQI_BENCH_PORT:-18080}

pids=()
stop_all() {
    local p
    for p in "${pids[@]}"; do
        kill "$p" 2>/dev/null || true
    done
    for p in "${pids[@]}"; do
        wait "$p" 2>/dev/null || true
    done
    pids=()
}
trap 'stop_all; rm -rf "$work"' EXIT

ulimit -n "$(ulimit -Hn)"
if ! command -v haproxy >/dev/null; then
    echo "installing haproxy" >&2
    apt-get install -y haproxy >/dev/null || { apt-get update >/dev/null && apt-get install -y haproxy >/dev/null; }
fi
(cd "$root" && cargo build --release -q -p xiangqi-cli && cargo build --release -q -p xiangqi-server --example load)
bin=$target/release/xiangqi
load=$target/release/examples/load

wait_ready() {
    local url=$1 i
    for i in $(seq 1 200); do
        curl -fsS "$url/readyz" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "$url never became ready" >&2
    return 1
}

results=()
for n in $(seq 1 "$most"); do
    psql -q "$pg/postgres" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
    servers=()
    backends=""
    for i in $(seq 1 "$n"); do
        port=$((lb_port + i))
        "$bin" serve --database "$pg/$db" --host 127.0.0.1 --port "$port" --behind-proxy \
            --signups-per-hour 1000000 --log warn --drain-seconds 2 >"$work/serve$i.log" 2>&1 &
        pids+=($!)
        servers+=($!)
        # One at a time: the first creates the tables.
        wait_ready "http://127.0.0.1:$port"
        backends+="    server s$i 127.0.0.1:$port check"$'\n'
    done
    cat >"$work/haproxy.cfg" <<CFG
global
    # Two descriptors a connection (client and server side) must fit the open-file limit.
    maxconn $(( $(ulimit -n) / 2 - 100 ))
defaults
    mode http
    option forwardfor
    option http-server-close
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
frontend site
    bind 127.0.0.1:$lb_port
    # A game's requests go to one instance (by its id in the path), which then
    # has the game in memory; everything else is spread evenly.
    acl game_path path_beg /api/v1/games/
    use_backend by_game if game_path
    default_backend xiangqi
backend by_game
    balance uri depth 4
    hash-type consistent
    option httpchk GET /readyz
$backends
backend xiangqi
    balance roundrobin
    option httpchk GET /readyz
$backends
CFG
    haproxy -f "$work/haproxy.cfg" -db >"$work/haproxy.log" 2>&1 &
    lb=$!
    pids+=($lb)
    wait_ready "http://127.0.0.1:$lb_port"
    sleep 1

    mapfile -t postgres < <(pgrep -x postgres)
    list() { local IFS=,; echo "$*"; }
    out=$("$load" "http://127.0.0.1:$lb_port" "$games" "$plies" \
        --cpu-of "postgres=$(list "${postgres[@]}")" --cpu-of "instances=$(list "${servers[@]}")" \
        --cpu-of "haproxy=$lb" | tee /dev/stderr)
    rate=$(sed -n 's/.*: \([0-9]*\) moves\/s/\1/p' <<<"$out")
    lat=$(sed -n 's/^submit latency: //p' <<<"$out")
    # Cores busy on average while the moves were being made.
    busy=$(sed -n 's/^cores busy during the moves: //p' <<<"$out")
    cores() { sed -n "s/.*$1 \([0-9.]*\).*/\1/p" <<<"$busy"; }
    results+=("$(printf '| %d | %s | %s | %s | %s | %s | %s |' "$n" "$rate" "$lat" \
        "$(cores postgres)" "$(cores instances)" "$(cores haproxy)" "$(cores load)")")
    stop_all
done

echo
echo "$games concurrent games, $plies moves each, through HAProxy; $(nproc) cores on this machine"
echo "| instances | moves/s | submit latency | PostgreSQL cores | instances' cores | HAProxy cores | load client cores |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${results[@]}"
