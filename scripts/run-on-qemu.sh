#!/usr/bin/env bash
# Runs an ONNX model on an emulated Cortex-M: generates the C with onnx-to-c,
# builds test-bed firmware (targets/cortex_m) with the inputs embedded in
# flash, runs it under QEMU and writes the outputs.
#
#   scripts/run-on-qemu.sh MODEL.onnx --cpu cortex-m4 IN_1 .. IN_k OUT_1 .. OUT_m
#
# Inputs and outputs are raw little-endian tensor files in graph order, as
# for the host harness (onnx-to-c --emit-harness). Options:
#   --cpu CPU            cortex-m0 (microbit), cortex-m3 (mps2-an385),
#                        cortex-m4 (M4F, mps2-an386), cortex-m7 (mps2-an500)
#   --timeout SECONDS    QEMU wall-clock limit (default 600)
#   --stats FILE.json    write instructions in the run function (and their
#                        Cortex-M4 cycle estimate), flash, RAM, arena and stack
#   --profile FILE.tsv   also write instructions and estimated cycles per
#                        statement (built with each statement function out of
#                        line, so the total has one call more per statement)
#   --flash-budget N, --ram-budget N, --arena-budget N
#                        fail the link when the firmware needs more bytes
#   --opt FLAG           optimisation flag for the firmware (default -O2)
#   --keep DIR           build in DIR and keep it (default: a temporary dir)
#   -- OPTS...           everything after -- goes to onnx-to-c
# The compiler is $ONNX_TO_C if set, else build/onnx-to-c. Exit status: 0
# success, 1 failure (compile, link, fault, timeout, wrong sizes), 2 usage.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() {
  echo "usage: $0 MODEL.onnx --cpu CPU [--timeout S] [--stats FILE] [--profile FILE] [--keep DIR]" \
       "[--flash-budget N] [--ram-budget N] [--arena-budget N] [--opt FLAG] IN.. OUT.. [-- ONNX_TO_C_OPTS]" >&2
  exit 2
}
fail() { echo "error: $*" >&2; exit 1; }

model="" cpu="" timeout_s=600 stats="" keep="" opt="-O2" profile=""
flash_budget="" ram_budget="" arena_budget=""
files=() compiler_opts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cpu) cpu="${2:-}"; shift 2 || usage ;;
    --timeout) timeout_s="${2:-}"; shift 2 || usage ;;
    --stats) stats="${2:-}"; shift 2 || usage ;;
    --profile) profile="${2:-}"; shift 2 || usage ;;
    --keep) keep="${2:-}"; shift 2 || usage ;;
    --opt) opt="${2:-}"; shift 2 || usage ;;
    --flash-budget) flash_budget="${2:-}"; shift 2 || usage ;;
    --ram-budget) ram_budget="${2:-}"; shift 2 || usage ;;
    --arena-budget) arena_budget="${2:-}"; shift 2 || usage ;;
    --) shift; compiler_opts=("$@"); break ;;
    -h|--help) usage ;;
    -*) echo "error: unknown option $1" >&2; usage ;;
    *) if [ -z "$model" ]; then model="$1"; else files+=("$1"); fi; shift ;;
  esac
done
[ -n "$model" ] && [ -n "$cpu" ] || usage
case "$cpu" in cortex-m0|cortex-m3|cortex-m4|cortex-m7) ;; *) echo "error: unknown --cpu $cpu" >&2; usage ;; esac
for n in "$timeout_s" $flash_budget $ram_budget $arena_budget; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "error: '$n' is not a number" >&2; usage; }
done
[ -f "$model" ] || fail "no model file '$model'"
compiler="${ONNX_TO_C:-$root/build/onnx-to-c}"
[ -x "$compiler" ] || fail "no compiler at '$compiler' (build it, or set ONNX_TO_C)"
for tool in arm-none-eabi-gcc qemu-system-arm cmake; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (bash scripts/setup.sh installs it)"
done

if [ -n "$keep" ]; then
  work="$(mkdir -p "$keep" && cd "$keep" && pwd)"
  rm -rf "$work/gen" "$work/io" "$work/out"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/gen" "$work/io" "$work/out"

# 1. Generate the C for the target.
"$compiler" "$model" -o "$work/gen" --name net --target "$cpu" --report "$work/report.json" \
  "${compiler_opts[@]+"${compiler_opts[@]}"}"
header="$work/gen/net.h"
k="$(sed -n 's/^#define NET_NUM_INPUTS \([0-9]*\)u$/\1/p' "$header")"
m="$(sed -n 's/^#define NET_NUM_OUTPUTS \([0-9]*\)u$/\1/p' "$header")"
[ "${#files[@]}" -eq $((k + m)) ] || fail "the model has $k input(s) and $m output(s): give $((k + m)) files, not ${#files[@]}"

# 2. The glue: inputs embedded with .incbin (with their sizes, which the
# firmware checks), output buffers, and host paths for the outputs.
case "$work" in *'"'*|*'\'*) fail "the build directory must not contain quotes or backslashes: $work" ;; esac
{
  sizes=""
  for ((i = 0; i < k; i++)); do
    f="$(cd "$(dirname "${files[$i]}")" && pwd)/$(basename "${files[$i]}")"
    [ -f "$f" ] || fail "no input file '${files[$i]}'"
    case "$f" in *'"'*|*'\'*) fail "input paths must not contain quotes or backslashes: $f" ;; esac
    printf '  .section .rodata.oc_input_%d, "a"\n  .balign 16\n  .global oc_input_%d\n' "$i" "$i"
    printf 'oc_input_%d:\n  .incbin "%s"\noc_input_%d_end:\n' "$i" "$f" "$i"
    sizes="$sizes  .word oc_input_${i}_end - oc_input_${i}\n"
  done
  printf '  .section .rodata.oc_input_file_bytes, "a"\n  .balign 4\n  .global oc_input_file_bytes\n'
  printf 'oc_input_file_bytes:\n%b' "${sizes:-  .word 0\n}"
} > "$work/io/inputs.S"
{
  echo '/* Generated by run-on-qemu.sh: the model'"'"'s inputs and outputs for firmware_main.c. */'
  echo '#include <stddef.h>'
  echo '#include <string.h>'
  echo '#include "firmware_io.h"'
  echo '#include "net.h"'
  for ((i = 0; i < k; i++)); do
    echo "extern const uint8_t oc_input_$i[];"
  done
  echo "const unsigned oc_num_inputs = ${k}u, oc_num_outputs = ${m}u;"
  printf 'const void *const oc_inputs[] = {'
  if [ "$k" -eq 0 ]; then printf 'NULL'; fi
  for ((i = 0; i < k; i++)); do printf 'oc_input_%d, ' "$i"; done
  printf '};\nconst uint32_t oc_input_bytes[] = {'
  if [ "$k" -eq 0 ]; then printf '0u'; fi
  for ((i = 0; i < k; i++)); do printf 'NET_INPUT_%d_BYTES, ' "$i"; done
  printf '};\nconst uint32_t oc_output_bytes[] = {'
  for ((i = 0; i < m; i++)); do printf 'NET_OUTPUT_%d_BYTES, ' "$i"; done
  printf '};\nconst char *const oc_output_paths[] = {'
  for ((i = 0; i < m; i++)); do printf '"%s/out/%d.bin", ' "$work" "$i"; done
  printf '};\n'
  # Inputs and outputs in the arena (--io=arena): the inputs are copied in before the measured
  # run, as a sensor driver would write them, and the outputs read where they are. Otherwise
  # the test bed holds the output buffers.
  # --stream-input: the model fetches the streamed input's rows from the flash image.
  echo '#ifdef NET_STREAMED_INPUT'
  echo 'void net_fetch_input_rows(int input, int32_t first_row, int32_t row_count, void *dst) {'
  echo '  const uint8_t *src = (const uint8_t *)oc_inputs[input];'
  echo '  uint32_t plane, bytes = (uint32_t)row_count * NET_STREAMED_INPUT_ROW_BYTES;'
  echo '  for (plane = 0; plane < NET_STREAMED_INPUT_PLANES; ++plane) {'
  echo '    memcpy((uint8_t *)dst + plane * bytes,'
  echo '           src + (plane * NET_STREAMED_INPUT_ROWS + (uint32_t)first_row) * NET_STREAMED_INPUT_ROW_BYTES, bytes);'
  echo '  }'
  echo '}'
  echo '#endif'
  echo '#if NET_IO_IN_ARENA'
  echo 'void oc_model_load_inputs(void) {'
  echo '  unsigned i;'
  echo '  for (i = 0; i < oc_num_inputs; ++i) {'
  echo '    if (net_input(i) != NULL) memcpy(net_input(i), oc_inputs[i], oc_input_bytes[i]);'
  echo '  }'
  echo '}'
  echo 'int oc_model_run(void) { return net_invoke(); }'
  echo 'const void *oc_output(unsigned i) { return net_output(i); }'
  echo '#else'
  for ((i = 0; i < m; i++)); do
    echo "static uint64_t out_$i[(NET_OUTPUT_${i}_BYTES + 7u) / 8u];"
  done
  printf 'static void *const outputs[] = {'
  if [ "$m" -eq 0 ]; then printf 'NULL'; fi
  for ((i = 0; i < m; i++)); do printf 'out_%d, ' "$i"; done
  printf '};\n'
  echo 'void oc_model_load_inputs(void) {}'
  echo 'int oc_model_run(void) { return net_run(oc_inputs, outputs); }'
  echo 'const void *oc_output(unsigned i) { return outputs[i]; }'
  echo '#endif'
} > "$work/io/oc_io.c"

# 3. Build the firmware (the linker script's ASSERTs enforce the budgets).
fw="$work/fw"
cmake -S "$root/targets/cortex_m/firmware" -B "$fw" -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$root/targets/cortex_m/arm-none-eabi.cmake" -DCMAKE_BUILD_TYPE= \
  -DOC_CPU="$cpu" -DOC_MODEL_DIR="$work/gen" -DOC_IO_DIR="$work/io" -DOC_OPT="$opt" \
  -DOC_FLASH_BUDGET="$flash_budget" -DOC_RAM_BUDGET="$ram_budget" -DOC_ARENA_BUDGET="$arena_budget" \
  -DOC_PROFILE="$([ -n "$profile" ] && echo ON || echo OFF)" \
  > "$work/cmake.log" 2>&1 || { cat "$work/cmake.log" >&2; fail "configuring the firmware failed"; }
if ! cmake --build "$fw" > "$work/build.log" 2>&1; then
  grep -E "error|ASSERT|overflow|onnx-to-c firmware" "$work/build.log" >&2 || cat "$work/build.log" >&2
  fail "building the firmware for $cpu failed"
fi
elf="$fw/firmware.elf"
machine="$(cat "$fw/qemu_machine.txt")"

# 4. Run under QEMU; the plugin (built with the compiler) counts the
# instructions between oc_mark_begin and oc_mark_end.
plugin="${ONNX_TO_C_QEMU_PLUGIN:-$(dirname "$compiler")/liboc_insn_count.so}"
plugin_args=()
if [ -f "$plugin" ]; then
  addr() { arm-none-eabi-nm "$elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
  steps_arg=""
  if [ -n "$profile" ]; then
    # The statement functions sN_... (static; GCC may add a .constprop/.isra
    # suffix), in run order.
    arm-none-eabi-nm "$elf" | awk '$3 ~ /^s[0-9]+_/ { name = $3; sub(/\..*/, "", name);
      n = substr(name, 2) + 0; print n, "0x" $1, name }' | sort -n | awk '{ print $2, $3 }' > "$work/steps.txt"
    steps_arg=",steps=$work/steps.txt"
  fi
  plugin_args=(-plugin "$plugin,begin=$(addr oc_mark_begin),end=$(addr oc_mark_end),out=$work/insns.txt$steps_arg")
fi
set +e
timeout "$timeout_s" qemu-system-arm -M "$machine" -nographic -monitor none -serial null \
  -chardev file,id=console,path="$work/console.txt" \
  -semihosting-config enable=on,target=native,chardev=console \
  "${plugin_args[@]+"${plugin_args[@]}"}" -kernel "$elf" > "$work/qemu.out" 2>&1
rc=$?
set -e
grep -v '^stack_bytes=' "$work/console.txt" >&2 || true
cat "$work/qemu.out" >&2
[ "$rc" -ne 124 ] || fail "QEMU ($machine) timed out after $timeout_s s"
[ "$rc" -eq 0 ] || fail "the firmware on $machine exited with status $rc"

# 5. Outputs, then the numbers.
for ((i = 0; i < m; i++)); do
  [ -f "$work/out/$i.bin" ] || fail "the firmware wrote no output $i"
done
for ((i = 0; i < m; i++)); do cp "$work/out/$i.bin" "${files[$((k + i))]}"; done

size_of() { arm-none-eabi-size -A "$elf" | awk -v s="$1" '$1 == s { n = $2 } END { print n + 0 }'; }
flash=$(( $(size_of .vectors) + $(size_of .text) + $(size_of .rodata) + $(size_of .ARM.exidx) + $(size_of .data) ))
arena=$(size_of .arena)
ram=$(( $(size_of .data) + $(size_of .bss) + arena ))
stack="$(sed -n 's/^stack_bytes=//p' "$work/console.txt")"
insns="" cycles=""
if [ -f "$work/insns.txt" ]; then
  # Two intervals: the empty bracket, then the run; the difference is the run.
  mapfile -t counts < <(sed -n 's/^insns=\([0-9]*\) cycles=.*/\1/p' "$work/insns.txt")
  mapfile -t cyc < <(sed -n 's/^insns=[0-9]* cycles=\([0-9]*\)$/\1/p' "$work/insns.txt")
  [ "${#counts[@]}" -eq 2 ] || fail "the instruction counter saw ${#counts[@]} intervals, not 2"
  insns=$(( counts[1] - counts[0] ))
  cycles=$(( cyc[1] - cyc[0] ))
  if [ -n "$profile" ]; then
    { printf 'statement\tinstructions\tcycles_m4_estimate\n'
      sed -n 's/^step \([^ ]*\) insns=\([0-9]*\) cycles=\([0-9]*\)$/\1\t\2\t\3/p' "$work/insns.txt"
    } > "$profile"
  fi
fi
# Static bound from GCC's call graph and frame sizes (-fcallgraph-info=su), for
# the function the test bed runs.
entry=net_run
if grep -q '^#define NET_IO_IN_ARENA 1' "$header"; then entry=net_invoke; fi
bound="$(/usr/bin/python3 "$root/targets/cortex_m/stack_bound.py" "$entry" "$fw" | sed -n 's/^stack_bound_bytes=//p')"
echo "$cpu ($machine): run ${insns:-?} instructions (~${cycles:-?} cycles as a Cortex-M4 estimate); flash $flash B, RAM $ram B (arena $arena B)," \
     "stack $stack B measured, ${bound:-?} B static bound for $entry"
if [ -n "$stats" ]; then
  cat > "$stats" <<JSON
{"cpu": "$cpu", "machine": "$machine", "run_instructions": ${insns:-null},
 "run_cycles_m4_estimate": ${cycles:-null}, "flash_bytes": $flash,
 "ram_bytes": $ram, "arena_bytes": $arena, "stack_bytes": $stack, "stack_bound_bytes": ${bound:-null},
 "text_bytes": $(size_of .text), "rodata_bytes": $(size_of .rodata), "data_bytes": $(size_of .data),
 "bss_bytes": $(size_of .bss)}
JSON
fi
