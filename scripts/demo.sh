#!/usr/bin/env bash
# The main job on a bundled model: install what is missing, build onnx-to-c,
# compile models/cnn_small (or the model directory given), build and run the C,
# and print the report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --minimal
bash scripts/build.sh >/dev/null
/usr/bin/python3 scripts/demo.py "$@"
