#!/usr/bin/env bash
# Runs the libFuzzer targets (tests/fuzz), one after the other, SECONDS each:
#   scripts/fuzz.sh SECONDS [BUILD_DIR]
# Builds them with clang-14 into BUILD_DIR (default build-fuzz). The corpus
# starts from every model in models/ and grows in BUILD_DIR/corpus/TARGET;
# a crash is written to BUILD_DIR/artifacts/TARGET/ and fails the script. Copy
# it into tests/fuzz/regressions/ so that ctest replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:?usage: scripts/fuzz.sh SECONDS [BUILD_DIR]}"
build="${2:-build-fuzz}"

if ! dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q "install ok installed"; then
  echo "fuzz: needs clang-14 and libclang-rt-14-dev (apt-get install clang-14 libclang-rt-14-dev)" >&2
  exit 2
fi
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DONNX_TO_C_FUZZ=ON -DONNX_TO_C_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" -j2 --target oc_import_fuzzer oc_pipeline_fuzzer

status=0
for target in import_fuzzer pipeline_fuzzer; do
  corpus="$build/corpus/$target"
  artifacts="$build/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  for m in models/*/model.onnx models/bad/*.onnx tests/fuzz/regressions/*; do
    [[ -f "$m" ]] || continue
    cp -n "$m" "$corpus/seed-$(echo "$m" | tr '/' '_')"
  done
  echo "fuzz: $target for ${seconds}s"
  # -timeout: a hang is a bug (the searches have budgets); -rss_limit_mb: so is
  # unbounded memory on a small input.
  "$build/oc_$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=16384 -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" || status=1
done
exit $status
