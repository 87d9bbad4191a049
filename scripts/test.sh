#!/usr/bin/env bash
# Runs every test on a fresh machine: installs the dependencies, builds, and
# runs ctest (kernel tests, unit tests, lit tests, end-to-end tests on the
# project's models and, when ../shared/models/public exists, the public models).
# Then builds the compiler, runtime and tests again with ASan + UBSan into
# build-sanitize/ and runs the unit, kernel, fuzz-regression and end-to-end
# tests there (see SANITIZED_SKIP for what is left out and why).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
(cd build && ctest --output-on-failure -j"$(nproc)" "$@")

# Skipped under the sanitizers: building the generated C with plain gcc and
# clang again (the compiler's runs are covered by e2e.models.sanitize, which
# also instruments the generated C), and the ONNX conformance and public-model
# suites (and recompute with a large budget on them), too slow instrumented for CI.
SANITIZED_SKIP='^(e2e\.models\.(gcc|clang-14)|e2e\.public_models|e2e\.schedule_identity|e2e\.recompute_identity_budget25|conformance\..*)$'
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [[ ! -f build-sanitize/CMakeCache.txt ]]; then
  cmake -S . -B build-sanitize "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DONNX_TO_C_SANITIZE=address,undefined >/dev/null
fi
cmake --build build-sanitize -j"$(nproc)"
cd build-sanitize
ctest --output-on-failure -j"$(nproc)" -E "$SANITIZED_SKIP" "$@"
