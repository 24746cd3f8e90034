#!/usr/bin/env bash
# Times uploads of make_corpus's site files (site/: a 2 MiB PGN, DhtmlXQ,
# CCBridge library and XQF book) through POST /api/v1/imports of a release
# server on a fresh SQLite database, as the import page sends them.
#
#   cargo build --release -p xiangqi-cli
#   bash crates/xiangqi-records/examples/site_import.sh [XIANGQI] [DIR] [ROUNDS]
#
# XIANGQI is the binary (target/release/xiangqi), DIR make_corpus's folder
# (target/records-bench), ROUNDS how many times each file is sent (3). Each
# round signs up a user of its own, so no game of a round is a duplicate of
# one kept before (a duplicate is not written, which would make a later
# round cheaper). Prints, per upload, the seconds from the first byte sent to
# the last byte of the answer (curl's time_total), the server's CPU seconds
# meanwhile (its threads together, from /proc: on a machine shared with other
# work the wall time shows the waits, the CPU time what the upload costs), the
# HTTP status and what the answer says was kept and refused; then each file's
# best round.
set -euo pipefail

root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${1:-$root/target/release/xiangqi}
dir=${2:-$root/target/records-bench}
rounds=${3:-3}
files=(games.pgn games.dhtmlxq.txt library.cbl book.xqf)

work=$(mktemp -d)
server=
cleanup() {
    if [ -n "$server" ]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

"$bin" serve --database "sqlite://$work/site.db?mode=rwc" --port 0 --signups-per-hour 1000 \
    --log warn >"$work/out" 2>"$work/err" &
server=$!
url=
for _ in $(seq 100); do
    url=$(grep -o 'http://[^ ]*' "$work/out" | head -n 1 | sed 's#/$##' || true)
    [ -n "$url" ] && break
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "the server did not start:" >&2
    cat "$work/err" >&2
    exit 1
fi
echo "server $url ($("$bin" --version 2>/dev/null || echo xiangqi)), database $work/site.db"

# What an import's answer says, in a few words.
summary() {
    python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
if "kept" in a:
    print("%s: %d kept, %d refused, %d duplicates" % (a["format"], len(a["kept"]), len(a["refused"]), a["duplicates"]))
else:
    print(json.dumps(a)[:300])
' "$1"
}

tick=$(getconf CLK_TCK)
# The server's CPU time so far, user and system, in seconds.
cpu() {
    awk -v tick="$tick" '{ printf "%.2f", ($14 + $15) / tick }' "/proc/$server/stat"
}

declare -A best
for round in $(seq "$rounds"); do
    name="bench$round$RANDOM"
    token=$(curl -sf -H 'X-Xiangqi: 1' -H 'Content-Type: application/json' \
        -d "{\"name\":\"$name\",\"password\":\"bench-password\"}" "$url/api/v1/users" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
    for file in "${files[@]}"; do
        path="$dir/site/$file"
        bytes=$(stat -c %s "$path")
        before=$(cpu)
        read -r status seconds < <(curl -s -o "$work/answer.json" -w '%{http_code} %{time_total}\n' \
            -H "Authorization: Bearer $token" -H 'X-Xiangqi: 1' \
            -H 'Content-Type: application/octet-stream' --data-binary "@$path" "$url/api/v1/imports")
        used=$(python3 -c "print(f'{$(cpu) - $before:.2f}')")
        echo "round $round: $file ($bytes bytes): $seconds s ($used s of CPU), HTTP $status, $(summary "$work/answer.json")"
        if [ -z "${best[$file]:-}" ] || python3 -c "import sys; sys.exit(not $seconds < ${best[$file]})"; then
            best[$file]=$seconds
        fi
    done
done
for file in "${files[@]}"; do
    echo "best of $rounds: $file ${best[$file]} s"
done
