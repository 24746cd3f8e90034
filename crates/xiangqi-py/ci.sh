#!/usr/bin/env bash
# Builds the Python wheel of crates/xiangqi-py and runs its tests against the
# installed wheel: a build venv (maturin) and a fresh test venv, both under
# target/python/. Safe to run twice. Needs python3 with venv and pip (on
# Debian: `apt-get install -y python3-venv`, done below when missing).
set -euo pipefail
cd "$(dirname "$0")"
crate="$PWD"
root="$(cd ../.. && pwd)"
work="$root/target/python"
mkdir -p "$work"

if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends python3-venv
fi

if [ ! -x "$work/build-venv/bin/maturin" ]; then
  rm -rf "$work/build-venv"
  python3 -m venv "$work/build-venv"
  "$work/build-venv/bin/pip" install --quiet --upgrade pip
  "$work/build-venv/bin/pip" install --quiet "maturin>=1.7,<2"
fi

# The wheel runs on any x86-64-v2 machine (SSE4.2, POPCNT; 2009 on): this
# setting replaces the repository's target-cpu=native. The NNUE kernels pick
# AVX2 at run time where the processor has it. Its own target folder keeps
# these flags from rebuilding the workspace's.
export RUSTFLAGS="-C target-cpu=x86-64-v2"
export CARGO_TARGET_DIR="$work/cargo"
rm -rf "$work/wheels"
"$work/build-venv/bin/maturin" build --release --manifest-path "$crate/Cargo.toml" --out "$work/wheels"

rm -rf "$work/test-venv"
python3 -m venv "$work/test-venv"
"$work/test-venv/bin/pip" install --quiet pytest numpy
"$work/test-venv/bin/pip" install --quiet "$work"/wheels/xiangqi_rs-*.whl
# From outside the crate, so that the installed wheel is what is imported.
cd "$work"
"$work/test-venv/bin/python" -m pytest -q "$crate/tests"
