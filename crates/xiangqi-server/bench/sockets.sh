#!/usr/bin/env bash
# 10,000 WebSockets on one `xiangqi serve` process and a move fanned out to
# 1,000 spectators (examples/sockets.rs), with the open-file limit raised.
#
#   crates/xiangqi-server/bench/sockets.sh [CONNECTIONS] [SPECTATORS] [MOVES] [DATABASE_URL]
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
ulimit -n "$(ulimit -Hn)"
(cd "$root" && cargo build --release -q -p xiangqi-cli && cargo build --release -q -p xiangqi-server --example sockets)
XIANGQI_BIN=$target/release/xiangqi "$target/release/examples/sockets" "$@"
