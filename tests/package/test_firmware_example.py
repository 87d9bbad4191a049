"""examples/firmware cross-compiled for Cortex-M4F with arm-none-eabi-gcc
against an installed prefix (the compiler runs on the host): it must compile
warning-free and link, TARGET cortex-m4 must reach the compiler (the header's
target and alignment; inputs and outputs in the arena, the Cortex-M default),
the model's static arena must be in the ELF with the size the generated header
states, and the generated code must be compiled
with -ffp-contract=off and the toolchain's CPU flags. Exit 77 (skip) without
arm-none-eabi-gcc.

    test_firmware_example.py --prefix PREFIX --work DIR
"""
import json
import re
import shutil
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import consumer  # noqa: E402


def main():
    args = consumer.parse_args()
    if not shutil.which("arm-none-eabi-gcc"):
        consumer.skip("arm-none-eabi-gcc not found (scripts/setup.sh installs gcc-arm-none-eabi)")
    source = consumer.EXAMPLES / "firmware"
    build = args.work / "firmware"
    consumer.configure(source, build, args.prefix,
                       f"-DCMAKE_TOOLCHAIN_FILE={source / 'arm-none-eabi.cmake'}",
                       "-DCMAKE_BUILD_TYPE=MinSizeRel")
    consumer.build(build)

    elf = build / "firmware"
    rc, header = consumer.run(["arm-none-eabi-readelf", "-h", elf])
    if rc != 0 or "ARM" not in header or "EXEC" not in header:
        consumer.fail(f"{elf} is not an ARM executable:\n{header}")
    h = (build / "onnx_to_c" / "cnn" / "cnn.h").read_text()
    arena = int(re.search(r"#define CNN_ARENA_SIZE (\d+)u", h).group(1))
    # TARGET cortex-m4 reached the compiler: Cortex-M alignment, recorded target.
    if '#define CNN_TARGET "cortex-m4"' not in h or "#define CNN_ARENA_ALIGNMENT 8u" not in h:
        consumer.fail("TARGET cortex-m4 did not reach onnx-to-c (header: target or alignment)")
    if "#define CNN_IO_IN_ARENA 1" not in h or f"#define CNN_TOTAL_RAM_SIZE {arena}u" not in h:
        consumer.fail("on cortex-m4 the inputs and outputs should live in the arena by default")
    rc, symbols = consumer.run(["arm-none-eabi-nm", "-S", elf])
    sizes = [int(m.group(1), 16) for m in re.finditer(r"^\S+ (\S+) [bB] cnn_arena$", symbols, re.M)]
    if sizes != [arena]:
        consumer.fail(f"expected one cnn_arena of {arena} bytes in .bss, found {sizes}")

    commands = json.loads((build / "compile_commands.json").read_text())
    generated = [c["command"] for c in commands if c["file"].endswith("cnn.c")]
    if len(generated) != 1:
        consumer.fail(f"no single compile command for cnn.c: {generated}")
    for flag in ("-ffp-contract=off", "-mcpu=cortex-m4", "-mthumb", "-Werror"):
        if flag not in generated[0].split():
            consumer.fail(f"cnn.c is compiled without {flag}: {generated[0]}")
    rc, size = consumer.run(["arm-none-eabi-size", elf])
    print(f"ok: firmware example cross-compiled and linked, arena {arena} bytes in .bss\n{size}")


if __name__ == "__main__":
    main()
