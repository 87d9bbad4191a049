#!/usr/bin/env bash
# Runs the tests on a fresh machine (installs the dependencies, builds build/).
#
#   bash scripts/test.sh           every test: all of ctest in build/, then the
#                                  compiler and the generated C under ASan+UBSan
#                                  in build-sanitize/ (see below)
#   bash scripts/test.sh --quick   the quick tier for daily work: kernel, unit,
#                                  lit, CLI and report tests, the hostile
#                                  corpus, certificates, the README's tables,
#                                  fuzz regressions and
#                                  the test models end to end with clang
#
# Extra arguments go to every ctest call (e.g. -R PATTERN, --verbose).
set -euo pipefail
cd "$(dirname "$0")/.."
tier=full
if [[ "${1:-}" == "--quick" ]]; then
  tier=quick
  shift
fi
jobs="$(nproc)"
bash scripts/setup.sh
bash scripts/build.sh

QUICK='^(house\..*|runtime\.kernels|runtime\.qlinear_kernels|unit\..*|lit.*|cli\..*|report\.(json_schema|fields|html_names)|e2e\.bad_models|e2e\.verify|e2e\.readme_tables|e2e\.shape_operand_checks|e2e\.models\.clang-14|fuzz\..*\.regressions)$'
if [[ "$tier" == quick ]]; then
  (cd build && ctest --output-on-failure -j"$jobs" -R "$QUICK" "$@")
  exit 0
fi

# The plain tree runs everything but e2e.models.sanitize, which the sanitizer
# tree runs with the compiler instrumented as well.
(cd build && ctest --output-on-failure -j"$jobs" -E '^e2e\.models\.sanitize$' "$@")

# The sanitizer tree: the compiler, its unit tests and the fuzz replays built
# with ASan+UBSan (-O1, as the sanitizers recommend; assertions on), running
# what exercises the compiler's own code: unit tests, lit, the CLI, the hostile
# corpus and fuzz regressions, certificates, output safety, the 10,000-node
# model, and every test model compiled by the instrumented compiler and built
# and run instrumented (e2e.models.sanitize). The runtime kernels are already
# tested under ASan+UBSan in build/ (runtime.*.sanitized, runtime.kernels.sanitize,
# avx2_wide_lane), and the end-to-end suites that only build more C with
# plain compilers run there.
SANITIZED='^(unit\..*|lit.*|cli\..*|fuzz\..*|e2e\.models\.sanitize|e2e\.bad_models|e2e\.verify|e2e\.output_safety|e2e\.large_model)$'
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [[ ! -f build-sanitize/CMakeCache.txt ]]; then
  cmake -S . -B build-sanitize "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" \
    -DONNX_TO_C_SANITIZE=address,undefined >/dev/null
fi
cmake --build build-sanitize -j"$jobs" --target onnx-to-c oc-opt oc_unit_tests \
  oc_import_fuzzer_replay oc_pipeline_fuzzer_replay oc_m4_cycles_test
(cd build-sanitize && ctest --output-on-failure -j"$jobs" -R "$SANITIZED" "$@")
