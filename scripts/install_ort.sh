#!/usr/bin/env bash
# Install ONNX Runtime for Node.js (CPU build) into DIR, used as the reference
# implementation by models/generate.py, tests/e2e and bench/.
#
#   scripts/install_ort.sh DIR
#
# Idempotent: does nothing if DIR/node_modules/onnxruntime-node already exists.
# Quiet on success; prints npm's log on failure.
# Afterwards point the tools at it with: export ONNX_TO_C_ORT_DIR=DIR
set -euo pipefail

ORT_VERSION=1.30.0

if [ $# -ne 1 ]; then
    echo "usage: $0 DIR" >&2
    exit 2
fi
dir=$1

if [ -d "$dir/node_modules/onnxruntime-node" ]; then
    exit 0
fi

command -v npm >/dev/null || { echo "error: npm not found (install nodejs 20 and npm)" >&2; exit 1; }

mkdir -p "$dir"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# ONNXRUNTIME_NODE_INSTALL=skip: the package's install script would otherwise try to
# download GPU execution providers (no network for that here); the CPU build ships
# inside the npm package itself.
if ! ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$dir" --no-audit --no-fund \
        --loglevel=error "onnxruntime-node@$ORT_VERSION" >"$log" 2>&1; then
    cat "$log" >&2
    echo "error: npm install of onnxruntime-node@$ORT_VERSION into $dir failed" >&2
    exit 1
fi
