#!/usr/bin/env bash
# Installs what onnx-to-c needs to build and test, when it is missing:
# Debian packages (apt-get) and ONNX Runtime for Node.js (npm, reference
# outputs only). Safe to run again: it installs nothing that is present.
#
#   scripts/setup.sh            build + test dependencies
#   scripts/setup.sh --minimal  only what the compiler and its demo need
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ gcc libonnx-dev libprotobuf-dev protobuf-compiler libabsl-dev
          python3-onnx python3-numpy)
if [[ "${1:-}" != "--minimal" ]]; then
  packages+=(libgtest-dev llvm-14-tools clang-14 libonnx-testdata)
  # Cortex-M: cross-compiler with newlib and QEMU (firmware test bed, the
  # firmware example); the JSON Schema of reports; the HTML report in
  # headless Chromium.
  packages+=(gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm python3-jsonschema
             chromium python3-pil)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ "${1:-}" != "--minimal" ]]; then
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "setup: Node.js and npm are needed for ONNX Runtime reference outputs" >&2
    exit 1
  fi
  bash scripts/install_ort.sh .deps/ort
fi
