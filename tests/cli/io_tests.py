"""--io=arena|caller: where the graph's inputs and outputs live, and the RAM the
report and the header say a firmware pays.

For project models (and the public models when ../shared is there):
- `--io=caller`: total_ram_bytes = arena_bytes + caller_io_bytes, the header has
  NAME_TOTAL_RAM_SIZE and NAME_IO_IN_ARENA 0 and no NAME_input;
- `--io=arena`: caller_io_bytes 0, total_ram_bytes = arena_bytes = the peak the
  certificate covers, and the header declares NAME_input, NAME_output and
  NAME_invoke; the total RAM is never above the caller build's arena plus its
  inputs and outputs (each rounded to the alignment), and never above the
  TFLite-style arena that holds the inputs and outputs too;
- both reports verify; the defaults are caller on x86-64 and arena on the
  Cortex-M targets; a bad value is bad usage (exit 2, nothing written);
- in arena mode the CI gates --max-arena and --require-certified judge the
  arena that holds the inputs and outputs.

    io_tests.py --compiler onnx-to-c --work DIR
"""
import json
import re
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
from run_cli_tests import ROOT, check, check_verifies, failures, parse_work_args, run  # noqa: E402
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
from common import aligned_caller_io  # noqa: E402

MODELS = [ROOT / "models" / m / "model.onnx"
          for m in ("cnn_small", "two_inputs_two_outputs", "maxpool_2x2", "int8_qdq_concat_pool")]
PUBLIC = ROOT.parent / "shared" / "models" / "public"


def compile_report(compiler, work, tag, model, *options):
    out = work / tag
    rc, _, err = run(compiler, model, "-o", out, "--name", "net", "--report", work / f"{tag}.json", *options)
    if rc != 0:
        check(False, f"{tag} compiles: {err.strip()}")
        return None, ""
    return json.loads((work / f"{tag}.json").read_text()), (out / "net.h").read_text()


def header_define(header, name):
    m = re.search(rf"^#define NET_{name} (\d+)u?$", header, re.M)
    return int(m.group(1)) if m else None


def test_model(compiler, work, model):
    name = model.parent.name if model.name == "model.onnx" else model.stem
    caller, hc = compile_report(compiler, work, f"{name}_caller", model, "--io=caller")
    arena, ha = compile_report(compiler, work, f"{name}_arena", model, "--io=arena")
    if caller is None or arena is None:
        return
    check(not caller["io_in_arena"] and caller["caller_io_bytes"] > 0
          and caller["total_ram_bytes"] == caller["arena_bytes"] + caller["caller_io_bytes"]
          and header_define(hc, "TOTAL_RAM_SIZE") == caller["total_ram_bytes"]
          and header_define(hc, "IO_IN_ARENA") == 0 and "net_input(" not in hc,
          f"{name} --io=caller: total RAM {caller['total_ram_bytes']} = arena {caller['arena_bytes']} + "
          f"caller buffers {caller['caller_io_bytes']}, in the header too")
    check(arena["io_in_arena"] and arena["caller_io_bytes"] == 0
          and arena["total_ram_bytes"] == arena["arena_bytes"] >= arena["peak_bytes"]
          and header_define(ha, "TOTAL_RAM_SIZE") == arena["arena_bytes"]
          and header_define(ha, "IO_IN_ARENA") == 1
          and all(f in ha for f in ("void *net_input(unsigned index);", "void *net_output(unsigned index);",
                                    "int net_invoke(void);", "int net_run(")),
          f"{name} --io=arena: total RAM {arena['total_ram_bytes']} = arena >= peak {arena['peak_bytes']}; "
          "the header declares net_input, net_output, net_invoke and net_run")
    check(all(v["space"] == "arena" for v in arena["values"]),
          f"{name} --io=arena: every value is placed in the arena")
    check(arena["total_ram_bytes"] <= caller["arena_bytes"] + aligned_caller_io(caller),
          f"{name}: total RAM with the inputs and outputs in the arena {arena['total_ram_bytes']} <= "
          f"the caller build's arena plus its buffers {caller['arena_bytes'] + aligned_caller_io(caller)}")
    check(arena["arena_bytes"] <= arena["tflite_style_io_arena_bytes"],
          f"{name}: {arena['arena_bytes']} <= the TFLite-style arena with inputs and outputs "
          f"{arena['tflite_style_io_arena_bytes']}")
    for tag in (f"{name}_caller", f"{name}_arena"):
        check_verifies(compiler, work / f"{tag}.json", model, tag)


def test_gates(compiler, work, model):
    """--max-arena and --require-certified in arena mode: the gate's number is the whole RAM."""
    r, _ = compile_report(compiler, work, "gate_ref", model, "--io=arena")
    if r is None:
        return
    total = r["total_ram_bytes"]
    # A limit no patching reaches (above it, the compiler patches the model to fit).
    low = min(total - 1, 256)
    rc, _, err = run(compiler, model, "-o", work / "gate_low", "--io=arena", f"--max-arena={low}")
    check(rc == 1 and f"needs {total} bytes" in err and not (work / "gate_low").exists(),
          f"--io=arena --max-arena={low} fails naming {total} bytes: {err.strip()}")
    rc, _, err = run(compiler, model, "-o", work / "gate_ok", "--io=arena", f"--max-arena={total}",
                     "--require-certified")
    check(rc == 0 and r["certified_optimal"],
          f"--io=arena --max-arena={total} --require-certified passes (certified with the inputs and outputs "
          f"in the bound) {err.strip()}")


def main():
    args = parse_work_args()
    for model in MODELS:
        test_model(args.compiler, args.work, model)
    test_gates(args.compiler, args.work, MODELS[0])
    for name in ("dense_ae_640", "mnasnet0_5_96"):
        model = PUBLIC / f"{name}.onnx"
        if model.exists():
            test_model(args.compiler, args.work, model)
        else:
            print(f"skip: {model} is absent")
    for target, want in (("x86-64", False), ("x86-64-v3", False), ("cortex-m0", True), ("cortex-m4", True),
                         ("cortex-m7", True)):
        r, _ = compile_report(args.compiler, args.work, f"default_{target}", MODELS[0], f"--target={target}")
        check(r is not None and r["io_in_arena"] == want,
              f"--target={target}: inputs and outputs {'in the arena' if want else 'in caller buffers'} by default")
    for bad in ("", "heap", "ARENA"):
        rc, _, err = run(args.compiler, MODELS[0], "-o", args.work / "bad", f"--io={bad}")
        check(rc == 2 and err.startswith("error: ") and not (args.work / "bad").exists(),
              f"--io={bad!r} is bad usage (exit 2)")
    print(f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
