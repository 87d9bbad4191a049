"""MAX_ARENA, MEMORY_MAP and REQUIRE_CERTIFIED of onnx_to_c_add_model() fail the build
with onnx-to-c's message and leave no generated file or report; within the
limits the same project builds. The ONNX_TO_C_EXECUTABLE cache variable
picks the compiler the build runs. IO arena|caller reaches the compiler (the
report and the header say where the inputs and outputs live); another value
fails at configure time.

    test_cmake_gates.py --prefix PREFIX --work DIR
"""
import json
import os
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import consumer  # noqa: E402

PROJECT = Path(__file__).resolve().parent / "gate_project"


def attempt(work, prefix, model, *definitions):
    build = work / "gates"
    consumer.configure(PROJECT, build, prefix, f"-DMODEL={model}", *definitions)
    rc, out = consumer.build(build, check=False)
    target = next((d.split("=", 1)[1] for d in definitions if d.startswith("-DMODEL_TARGET=")), "gated")
    outputs = [build / "onnx_to_c" / target / f for f in ("gated.c", "gated.h")] + [build / "gated.json"]
    return rc, out, [p for p in outputs if p.exists()], build


def expect_failure(work, prefix, model, needles, *definitions):
    rc, out, left, _ = attempt(work, prefix, model, *definitions)
    if rc == 0:
        consumer.fail(f"{definitions}: the build should fail\n{out}")
    errors = [l for l in out.splitlines() if l.startswith("error: ")]
    if len(errors) != 1 or not all(n in errors[0] for n in needles):
        consumer.fail(f"{definitions}: expected one error line with {needles}, got:\n{out}")
    if left:
        consumer.fail(f"{definitions}: the failed build left {left}")
    print(f"ok: {' '.join(definitions)} fails: {errors[0]}")


def expect_success(work, prefix, model, *definitions):
    rc, out, left, build = attempt(work, prefix, model, *definitions)
    if rc != 0 or len(left) != 3:
        consumer.fail(f"{definitions}: the build should succeed with every output\n{out}")
    print(f"ok: {' '.join(definitions)} builds")
    return json.loads((build / "gated.json").read_text())


def check_executable_override(work, prefix, model):
    """A wrapper named by ONNX_TO_C_EXECUTABLE runs instead of the installed compiler."""
    log = work / "wrapper.log"
    wrapper = work / "onnx-to-c-wrapper"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> "{log}"\nexec "{prefix}/bin/onnx-to-c" "$@"\n')
    os.chmod(wrapper, 0o755)
    log.unlink(missing_ok=True)
    expect_success(work, prefix, model, f"-DONNX_TO_C_EXECUTABLE={wrapper}")
    if not log.exists() or "--name gated" not in log.read_text():
        consumer.fail("ONNX_TO_C_EXECUTABLE did not pick the compiler the build runs")
    print("ok: ONNX_TO_C_EXECUTABLE overrides the compiler")


def check_io(work, prefix, model):
    for where, in_arena in (("arena", True), ("caller", False)):
        report = expect_success(work, prefix, model, f"-DIO={where}")
        header = (work / "gates" / "onnx_to_c" / "gated" / "gated.h").read_text()
        if report["io_in_arena"] != in_arena or f"#define GATED_IO_IN_ARENA {int(in_arena)}" not in header:
            consumer.fail(f"IO {where}: the report says io_in_arena {report['io_in_arena']}")
        if (report["total_ram_bytes"] == report["arena_bytes"]) != in_arena:
            consumer.fail(f"IO {where}: total RAM {report['total_ram_bytes']}, arena {report['arena_bytes']}")
        print(f"ok: IO {where}: total RAM {report['total_ram_bytes']} bytes")
    rc, out = consumer.run([consumer.CMAKE, "-S", PROJECT, "-B", work / "gates_bad_io",
                            f"-DCMAKE_PREFIX_PATH={prefix}", f"-DMODEL={model}", "-DIO=heap"])
    if rc == 0 or "IO 'heap' is neither arena nor caller" not in out:
        consumer.fail(f"IO heap: configuring should fail naming the value\n{out}")
    print("ok: IO heap fails at configure time")


def check_memory_map(work, prefix, model, arena):
    """MEMORY_MAP reaches the compiler: a split map builds with one array per region; a map
    of regions too small for anything fails the build with the compiler's message."""
    split = work / "split_map.json"
    split.write_text(json.dumps({"regions": [{"name": "fast", "size": max(16, arena // 4 // 16 * 16), "cost": 1},
                                             {"name": "slow", "size": 4 * arena, "cost": 8}]}))
    report = expect_success(work, prefix, model, f"-DMAP={split}")
    header = (work / "gates" / "onnx_to_c" / "gated" / "gated.h").read_text()
    names = [r["name"] for r in report["memory_map"]["regions"]]
    if names != ["fast", "slow"] or "GATED_ARENA_SLOW_SIZE" not in header:
        consumer.fail(f"MEMORY_MAP: regions {names} in the report, header without GATED_ARENA_SLOW_SIZE")
    print("ok: MEMORY_MAP builds one array per region")
    tiny = work / "tiny_map.json"
    tiny.write_text(json.dumps({"regions": [{"name": "a", "size": 64}]}))
    expect_failure(work, prefix, model, ["does not fit the memory map"], f"-DMAP={tiny}")


def main():
    args = consumer.parse_args()
    w, p = args.work, args.prefix
    cnn = consumer.ROOT / "models" / "cnn_small" / "model.onnx"
    report = expect_success(w, p, cnn)
    arena, bound = report["arena_bytes"], report["lower_bound_bytes"]
    expect_success(w, p, cnn, f"-DLIMIT={arena}")
    # Below the arena the model is patched to fit where it can: 256 bytes it cannot.
    expect_failure(w, p, cnn, [f"needs {arena} bytes", "--max-arena 256 bytes",
                               f"lower bound for any order {bound} bytes", "biggest live buffers"],
                   "-DLIMIT=256")
    check_memory_map(w, p, cnn, arena)
    # A certified model passes REQUIRE_CERTIFIED; a deliberately bad order does not.
    expect_success(w, p, cnn, "-DCERTIFIED=ON")
    hard = consumer.ROOT / "models" / "hard" / "unet_late_skips" / "model.onnx"
    expect_failure(w, p, hard, ["--require-certified", "not certified optimal", "lower bound"],
                   "-DCERTIFIED=ON", "-DEXTRA_OPTIONS=--schedule=file")
    check_executable_override(w, p, cnn)
    check_io(w, p, cnn)
    # A model target named like a system library still links that library.
    expect_success(w, p, cnn, "-DMODEL_TARGET=m")


if __name__ == "__main__":
    main()
