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
#
# A machine with fewer cores than processes cannot show throughput growing
# with instances: they all share its cores. A scale model can, with CPU quotas
# (Linux control groups, v1 or v2; needs root):
#   XIANGQI_BENCH_INSTANCE_CORES=0.2  each instance gets at most 0.2 of a core
#   XIANGQI_BENCH_DB_CORES=0.25       PostgreSQL (every process of the cluster) at most 0.25
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

instance_cores=${XIANGQI_BENCH_INSTANCE_CORES:-}
db_cores=${XIANGQI_BENCH_DB_CORES:-}
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    cgroot=/sys/fs/cgroup
else
    cgroot=/sys/fs/cgroup/cpu
fi
groups=()

# Puts processes (all their threads) in a control group of their own that may
# use at most CORES cores, measured over 10 ms periods so that the quota
# throttles often and briefly rather than rarely and long.
limit_cpu() {
    local name=$1 cores=$2 dir quota pid
    shift 2
    dir=$cgroot/xiangqi-bench-$name
    mkdir -p "$dir"
    quota=$(awk -v c="$cores" 'BEGIN { printf "%d", c * 10000 }')
    if [ "$cgroot" = /sys/fs/cgroup ]; then
        echo +cpu >"$cgroot/cgroup.subtree_control" 2>/dev/null || true
        echo "$quota 10000" >"$dir/cpu.max"
    else
        echo 10000 >"$dir/cpu.cfs_period_us"
        echo "$quota" >"$dir/cpu.cfs_quota_us"
    fi
    for pid in "$@"; do
        echo "$pid" >"$dir/cgroup.procs" 2>/dev/null || true
    done
    groups+=("$dir")
}

# Moves every process back to the root group and removes the groups.
free_cpu() {
    local dir pid
    for dir in "${groups[@]}"; do
        while read -r pid; do
            echo "$pid" >"$cgroot/cgroup.procs" 2>/dev/null || true
        done <"$dir/cgroup.procs"
        rmdir "$dir" 2>/dev/null || true
    done
    groups=()
}

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
trap 'stop_all; free_cpu; rm -rf "$work"' EXIT

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
        server=$!
        pids+=("$server")
        servers+=("$server")
        # One at a time: the first creates the tables.
        wait_ready "http://127.0.0.1:$port"
        if [ -n "$instance_cores" ]; then
            limit_cpu "s$i" "$instance_cores" "$server"
        fi
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
    # An instance held to a small CPU quota answers its health check late
    # under load: it stays in unless it fails for a long while.
    timeout check 10s
    default-server inter 5s fall 6 rise 1
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
    if [ -n "$db_cores" ]; then
        # The cluster's processes, those serving the instances included; new
        # ones fork from the postmaster and stay in its group.
        limit_cpu db "$db_cores" "${postgres[@]}"
    fi
    list() { local IFS=,; echo "$*"; }
    # What the database did meanwhile: its commits and its WAL flushes (each
    # commit waits for one; PostgreSQL 14 or later counts them).
    db_work() {
        psql -Atq "$pg/$db" -c "SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) \
            || ' ' || COALESCE((SELECT wal_sync FROM pg_stat_wal), 0) || ' ' || (extract(epoch FROM clock_timestamp()) * 1000)::bigint"
    }
    read -r commits0 syncs0 ms0 <<<"$(db_work)"
    each=()
    for i in "${!servers[@]}"; do
        each+=(--cpu-of "s$((i + 1))=${servers[$i]}")
    done
    out=$("$load" "http://127.0.0.1:$lb_port" "$games" "$plies" \
        --cpu-of "postgres=$(list "${postgres[@]}")" --cpu-of "instances=$(list "${servers[@]}")" \
        --cpu-of "haproxy=$lb" "${each[@]}" | tee /dev/stderr)
    read -r commits1 syncs1 ms1 <<<"$(db_work)"
    # Per second over the whole load (set-up included, which is short).
    secs=$(awk -v a="$ms0" -v b="$ms1" 'BEGIN { printf "%.3f", (b - a) / 1000 }')
    commits=$(awk -v a="$commits0" -v b="$commits1" -v s="$secs" 'BEGIN { printf "%d", (b - a) / s }')
    syncs=$(awk -v a="$syncs0" -v b="$syncs1" -v s="$secs" 'BEGIN { printf "%d", (b - a) / s }')
    rate=$(sed -n 's/.*: \([0-9]*\) moves\/s/\1/p' <<<"$out")
    lat=$(sed -n 's/^submit latency: //p' <<<"$out")
    # Cores busy on average while the moves were being made.
    busy=$(sed -n 's/^cores busy during the moves: //p' <<<"$out")
    cores() { sed -n "s/.*$1 \([0-9.]*\).*/\1/p" <<<"$busy"; }
    per=()
    for i in $(seq 1 "$n"); do
        per+=("$(cores "s$i")")
    done
    results+=("$(printf '| %d | %s | %s | %s | %s | %s | %s | %s (%s) | %s | %s |' "$n" "$rate" "$lat" "$commits" "$syncs" \
        "$(cores machine)" "$(cores postgres)" "$(cores instances)" "$(IFS=' '; echo "${per[*]}")" "$(cores haproxy)" "$(cores load)")")
    stop_all
    free_cpu
done

echo
echo "$games concurrent games, $plies moves each, through HAProxy; $(nproc) cores on this machine"
if [ -n "$instance_cores$db_cores" ]; then
    echo "scale model: each instance at most ${instance_cores:-all} cores, PostgreSQL at most ${db_cores:-all} cores"
fi
echo "| instances | moves/s | submit latency | commits/s | WAL flushes/s | machine's cores busy | PostgreSQL cores | instances' cores (each) | HAProxy cores | load client cores |"
echo "|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${results[@]}"
