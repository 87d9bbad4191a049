#!/usr/bin/python3
"""Benchmark onnx-to-c on the public models against ONNX Runtime (CPU, one thread).

    /usr/bin/python3 bench/bench_public.py --compiler build/onnx-to-c [--public DIR] [--cc gcc]
        [--iters N] [--rounds R] [--work DIR] [--ort-dir DIR] [--json FILE] [--targets T1,T2]
        [MODEL_STEM ...]

For every DIR/*.onnx (default ../shared/models/public from the repo root; skipped cleanly
if absent) it measures, in one run on the same seeded normal(0,1) input:
  compile  wall time of `onnx-to-c MODEL -o OUT --emit-harness --report R.json`
  build    wall time of `CC -std=c99 -O2 -ffp-contract=off OUT/*.c -lm`
  src      bytes of the generated .c and .h files (the harness excluded)
  arena    "arena_bytes" from the report
  C ms     median latency printed by the harness run with ONNX_TO_C_BENCH_ITERS=N,
           one column per --targets entry (default x86-64, which runs its AVX2 statements
           on AVX2 CPUs; x86-64-sse2 is the same code with -DONNX_TO_C_NO_DISPATCH;
           x86-64-v3 is AVX2 only)
  ORT ms   median latency from `node scripts/ort_run.js --time N`
           (--rounds R alternates them R times; each keeps its fastest median)
  max abs diff  largest |C output - ORT output| (a sanity check, not a test)
and prints a Markdown table with the C/ORT latency ratio and its geometric mean.
"""
import argparse
import json
import math
import re
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
import common  # noqa: E402

MEDIAN_RE = re.compile(r"median_ms=([0-9.eE+-]+)")


class BenchError(Exception):
    pass


def checked(res, what):
    if res.returncode != 0:
        raise BenchError(common.describe_failure(res, what))
    return res


def median_ms(text, what):
    m = MEDIAN_RE.findall(text)
    if not m:
        raise BenchError(f"{what} printed no median_ms=")
    return float(m[-1])


def build_target(args, model, work, target, row):
    """Compiles the model for `target` into work/target, builds it; returns the program."""
    gen = work / target / "gen"
    gen.mkdir(parents=True)
    report = work / target / "report.json"
    # x86-64-sse2: the x86-64 code with its AVX2 dispatch compiled out.
    cpu, defines = (("x86-64", ["-DONNX_TO_C_NO_DISPATCH"]) if target == "x86-64-sse2"
                    else (target, []))
    res = checked(common.run([args.compiler, model.resolve(), "-o", gen, "--emit-harness",
                              "--target=" + cpu, "--report", report], 900), "onnx-to-c")
    prog = work / target / "prog"
    srcs = sorted(str(p) for p in gen.glob("*.c"))
    built = checked(common.run(shlex.split(args.cc) + ["-std=c99", "-O2", "-ffp-contract=off"]
                               + defines + srcs + ["-lm", "-o", prog], 1800), "C build")
    if "compile_s" not in row:  # the first target's figures
        row["compile_s"] = res.seconds
        row["build_s"] = built.seconds
        row["arena_bytes"] = json.loads(report.read_text())["arena_bytes"]
        row["src_bytes"] = sum(p.stat().st_size for p in gen.iterdir()
                               if p.suffix in (".c", ".h") and not p.stem.endswith("_harness"))
    return prog


def bench_model(args, model, work):
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    row = {"model": model.stem, "c_ms": {}}
    progs = {t: build_target(args, model, work, t, row) for t in args.targets}

    _, inputs = common.random_inputs(model, common.model_seed(model.stem))
    _, outs = common.graph_io(model)
    in_files = [work / f"in_{i}.bin" for i in range(len(inputs))]
    c_out = [work / f"c_out_{i}.bin" for i in range(len(outs))]
    ort_out = [work / f"ort_out_{i}.bin" for i in range(len(outs))]
    for arr, f in zip(inputs, in_files):
        common.write_raw(arr, f)

    # Rounds alternate every program with ONNX Runtime, and each keeps its
    # fastest median: on a shared machine a burst of load then slows one
    # round of one side, not the comparison.
    first_bits = None
    for _ in range(args.rounds):
        for target, prog in progs.items():
            res = checked(common.run([prog] + in_files + c_out, 1800,
                                     env={"ONNX_TO_C_BENCH_ITERS": str(args.iters)}), "generated program")
            ms = median_ms(res.stderr, "generated program")
            row["c_ms"][target] = min(ms, row["c_ms"].get(target, ms))
            bits = [f.read_bytes() for f in c_out]
            if first_bits is not None and bits != first_bits:
                raise BenchError(f"{target} outputs differ in bits from {args.targets[0]}")
            first_bits = bits
        res = checked(common.run(["node", common.ORT_RUN, "--time", args.iters, model] + in_files
                                 + ort_out, 1800), "ort_run.js")
        ms = median_ms(res.stdout, "ort_run.js")
        row["ort_ms"] = min(ms, row.get("ort_ms", ms))

    max_diff = 0.0
    for fc, fo, (_, dtype) in zip(c_out, ort_out, outs):
        ref = common.read_raw(fo, dtype, [fo.stat().st_size // dtype.itemsize])
        try:
            got = common.read_raw(fc, dtype, ref.shape)
        except (OSError, ValueError) as e:
            raise BenchError(f"C output {fc.name}: {e}")
        max_diff = max(max_diff, float(abs(got.astype("float64") - ref.astype("float64")).max(initial=0)))
    row["max_diff"] = max_diff
    return row


def print_table(rows, targets):
    head = (["model", "compile s", "build s", "src KiB", "arena KiB"] + [f"C ms {t}" for t in targets]
            + ["ORT ms"] + [f"C/ORT {t}" for t in targets] + ["max abs diff"])
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|")
    ratios = {t: [] for t in targets}
    for r in rows:
        if "error" in r:
            print(f"| {r['model']} | FAIL: {r['error']} |" + " |" * (len(head) - 2))
            continue
        cells = [r["model"], f"{r['compile_s']:.2f}", f"{r['build_s']:.2f}", f"{r['src_bytes'] / 1024:.1f}",
                 f"{r['arena_bytes'] / 1024:.1f}"] + [f"{r['c_ms'][t]:.3f}" for t in targets]
        cells.append(f"{r['ort_ms']:.3f}")
        for t in targets:
            ratio = r["c_ms"][t] / r["ort_ms"] if r["ort_ms"] > 0 else float("inf")
            ratios[t].append(ratio)
            cells.append(f"{ratio:.2f}")
        cells.append(f"{r['max_diff']:.2g}")
        print("| " + " | ".join(cells) + " |")
    print()
    for t in targets:
        finite = [x for x in ratios[t] if 0 < x < float("inf")]
        if finite:
            geo = math.exp(sum(math.log(x) for x in finite) / len(finite))
            print(f"{t}: geometric mean C/ORT latency ratio over {len(finite)} models: {geo:.2f}, "
                  f"worst {max(finite):.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*", help="only these model stems")
    ap.add_argument("--compiler", required=True, help="path of onnx-to-c")
    ap.add_argument("--public", default=str(common.DEFAULT_PUBLIC_DIR), help="directory of *.onnx")
    ap.add_argument("--cc", default="gcc", help="C compiler command (default gcc)")
    ap.add_argument("--iters", type=int, default=50, help="timed inferences per model (default 50)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds alternating the programs and ONNX Runtime; each side keeps its "
                         "fastest median (default 3)")
    ap.add_argument("--work", help="scratch directory (default: a temporary one)")
    ap.add_argument("--ort-dir", help="onnxruntime-node install dir (installed if needed)")
    ap.add_argument("--json", help="also write the rows to this JSON file")
    ap.add_argument("--targets", default="x86-64",
                    help="comma-separated onnx-to-c --target values to time side by side "
                         "(default x86-64; e.g. x86-64,x86-64-v3)")
    args = ap.parse_args()
    args.compiler = str(Path(args.compiler).resolve())
    args.targets = [t for t in args.targets.split(",") if t]

    public = Path(args.public)
    if not public.is_dir():
        print(f"skip: public model directory {public} not found")
        return
    models = sorted(public.glob("*.onnx"))
    if args.models:
        models = [m for m in models if m.stem in args.models]
    common.setup_ort(args.ort_dir)
    work = Path(args.work or tempfile.mkdtemp(prefix="onnx2c_bench_")).resolve()

    rows = []
    for model in models:
        print(f"benchmarking {model.stem} ...", file=sys.stderr, flush=True)
        try:
            rows.append(bench_model(args, model, work / model.stem))
        except (BenchError, OSError, ValueError, KeyError) as e:
            rows.append({"model": model.stem, "error": str(e)})
    print_table(rows, args.targets)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    if not args.work:
        shutil.rmtree(work)
    sys.exit(1 if any("error" in r for r in rows) else 0)


if __name__ == "__main__":
    main()
