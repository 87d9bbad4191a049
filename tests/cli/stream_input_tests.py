"""--stream-input: the firmware delivers a graph input's rows (docs/memory-model.md,
"Streamed input").

- without --patches it is bad usage (exit 2, nothing written);
- refused (exit 1, one `error:` line, nothing written) when the input has a reader outside
  every patch region (a residual Add of the input, named with its op) and when no patch region
  from a graph input applies (a Gemm network);
- where it applies (the VWW network, 8-bit input): the header declares NAME_fetch_input_rows
  and the NAME_STREAMED_INPUT macros, NAME_input of that input is NULL, the report names the
  input (`stream_input`, its value's space `streamed`), verifies, and the total RAM is below the
  build without the option, with --io=arena and with --io=caller.

    stream_input_tests.py --compiler onnx-to-c --work DIR
"""
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
from run_cli_tests import ROOT, check, check_verifies, failures, parse_work_args, run  # noqa: E402

VWW = ROOT / "models" / "int8_vww_96" / "model.onnx"
GEMM = ROOT / "models" / "mlp_small" / "model.onnx"
PATCHED = ["--patches=auto", "--quantized-io"]


def skip_model(path):
    """x -> 3x3 conv to 16 channels -> Relu -> 3x3 conv to 4 -> Add(x, .), and a global average
    pool of x as a second output: no region from x takes the pool (it reads all of x), so x has
    a reader outside every patch (the error names the first such reader)."""
    rng = np.random.default_rng(43)
    inits = [numpy_helper.from_array(rng.standard_normal(s).astype(np.float32), n)
             for n, s in (("w1", (16, 4, 3, 3)), ("w2", (4, 16, 3, 3)))]
    nodes = [helper.make_node("Conv", ["x", "w1"], ["a"], name="expand", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["a"], ["b"], name="relu"),
             helper.make_node("Conv", ["b", "w2"], ["c"], name="project", pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["x", "c"], ["y"], name="skip_add"),
             helper.make_node("GlobalAveragePool", ["x"], ["g"], name="side_pool")]
    io = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4, 32, 32]) for n in ("x", "y")]
    io.append(helper.make_tensor_value_info("g", TensorProto.FLOAT, [1, 4, 1, 1]))
    m = helper.make_model(helper.make_graph(nodes, "skip", io[:1], io[1:], initializer=inits),
                          opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    onnx.save(m, str(path))


def expect_refusal(compiler, work, tag, model, needle, *options):
    out = work / tag
    rc, _, err = run(compiler, model, "-o", out, "--report", work / f"{tag}.json", "--stream-input", *options)
    check(rc == 1 and err.startswith("error: --stream-input: ") and needle in err and err.count("\n") == 1
          and not out.exists() and not (work / f"{tag}.json").exists(),
          f"{tag}: refused with '{needle}' and nothing written (exit {rc}: {err.strip()})")


def test_applies(compiler, work, io):
    reports = {}
    for tag, extra in (("plain", []), ("streamed", ["--stream-input"])):
        out = work / f"vww_{io}_{tag}"
        rc, _, err = run(compiler, VWW, "-o", out, "--name", "net", f"--io={io}", "--report",
                         work / f"vww_{io}_{tag}.json", *PATCHED, *extra)
        check(rc == 0, f"VWW --io={io} {tag} compiles {err.strip()}")
        if rc != 0:
            return
        reports[tag] = json.loads((work / f"vww_{io}_{tag}.json").read_text())
        check_verifies(compiler, work / f"vww_{io}_{tag}.json", VWW, f"VWW --io={io} {tag}")
    header = (work / f"vww_{io}_streamed" / "net.h").read_text()
    code = (work / f"vww_{io}_streamed" / "net.c").read_text()
    s, p = reports["streamed"], reports["plain"]
    check("void net_fetch_input_rows(int input, int32_t first_row, int32_t row_count, void *dst);" in header
          and "#define NET_STREAMED_INPUT 0" in header and "#define NET_STREAMED_INPUT_ROWS 96u" in header
          and "net_fetch_input_rows(0, " in code,
          f"VWW --io={io}: the header declares the fetch function and its macros, the code calls it")
    spaces = [v["space"] for v in s["values"] if v["space"] == "streamed"]
    check(s["stream_input"] == 0 and p["stream_input"] == -1 and len(spaces) == 1,
          f"VWW --io={io}: the report names the streamed input")
    check(s["total_ram_bytes"] < p["total_ram_bytes"],
          f"VWW --io={io}: total RAM {s['total_ram_bytes']} B streamed < {p['total_ram_bytes']} B")
    if io == "arena":
        check("case 0u:" not in code.split("void *net_input(unsigned index)")[1].split("}")[0],
              "VWW --io=arena: net_input(0) is NULL")


def main():
    args = parse_work_args()
    rc, _, err = run(args.compiler, VWW, "-o", args.work / "no_patches", "--stream-input")
    check(rc == 2 and "--stream-input needs --patches" in err and not (args.work / "no_patches").exists(),
          f"--stream-input without --patches is bad usage (exit {rc}: {err.strip()})")
    skip = args.work / "skip.onnx"
    skip_model(skip)
    expect_refusal(args.compiler, args.work, "skip", skip, "outside a patch region; only the row slices of patches",
                   "--patches=auto", "--recompute-mac-budget=50")
    expect_refusal(args.compiler, args.work, "gemm", GEMM, "no patch region from a graph input applies",
                   "--patches=auto")
    for io in ("arena", "caller"):
        test_applies(args.compiler, args.work, io)
    print(f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
