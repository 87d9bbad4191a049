#!/usr/bin/env bash
# Runs every test on a fresh machine: installs the dependencies, builds, and
# runs ctest (kernel tests, unit tests, lit tests, end-to-end tests on the
# project's models and, when ../shared/models/public exists, the public models).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
