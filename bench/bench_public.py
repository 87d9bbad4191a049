#!/usr/bin/python3
"""Benchmark onnx-to-c on the public models against ONNX Runtime (CPU, one thread).

    /usr/bin/python3 bench/bench_public.py --compiler build/onnx-to-c [--public DIR] [--cc gcc]
        [--iters N] [--work DIR] [--ort-dir DIR] [--json FILE] [MODEL_STEM ...]

For every DIR/*.onnx (default ../shared/models/public from the repo root; skipped cleanly
if absent) it measures, in one run on the same seeded normal(0,1) input:
  compile  wall time of `onnx-to-c MODEL -o OUT --emit-harness --report R.json`
  build    wall time of `CC -std=c99 -O2 -ffp-contract=off OUT/*.c -lm`
  src      bytes of the generated .c and .h files (the harness excluded)
  arena    "arena_bytes" from the report
  C ms     median latency printed by the harness run with ONNX_TO_C_BENCH_ITERS=N
  ORT ms   median latency from `node scripts/ort_run.js --time N`
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


def bench_model(args, model, work):
    if work.exists():
        shutil.rmtree(work)
    gen = work / "gen"
    gen.mkdir(parents=True)
    row = {"model": model.stem}

    res = checked(common.run([args.compiler, model.resolve(), "-o", gen, "--emit-harness",
                              "--report", work / "report.json"], 900), "onnx-to-c")
    row["compile_s"] = res.seconds
    row["arena_bytes"] = json.loads((work / "report.json").read_text())["arena_bytes"]
    row["src_bytes"] = sum(p.stat().st_size for p in gen.iterdir()
                           if p.suffix in (".c", ".h") and not p.stem.endswith("_harness"))

    prog = work / "prog"
    srcs = sorted(str(p) for p in gen.glob("*.c"))
    res = checked(common.run(shlex.split(args.cc) + ["-std=c99", "-O2", "-ffp-contract=off"] + srcs
                             + ["-lm", "-o", prog], 1800), "C build")
    row["build_s"] = res.seconds

    _, inputs = common.random_inputs(model, common.model_seed(model.stem))
    _, outs = common.graph_io(model)
    in_files = [work / f"in_{i}.bin" for i in range(len(inputs))]
    c_out = [work / f"c_out_{i}.bin" for i in range(len(outs))]
    ort_out = [work / f"ort_out_{i}.bin" for i in range(len(outs))]
    for arr, f in zip(inputs, in_files):
        common.write_raw(arr, f)

    res = checked(common.run([prog] + in_files + c_out, 1800,
                             env={"ONNX_TO_C_BENCH_ITERS": str(args.iters)}), "generated program")
    row["c_ms"] = median_ms(res.stderr, "generated program")
    res = checked(common.run(["node", common.ORT_RUN, "--time", args.iters, model] + in_files + ort_out,
                             1800), "ort_run.js")
    row["ort_ms"] = median_ms(res.stdout, "ort_run.js")

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


def print_table(rows):
    head = ["model", "compile s", "build s", "src KiB", "arena KiB", "C ms", "ORT ms", "C/ORT", "max abs diff"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|")
    ratios = []
    for r in rows:
        if "error" in r:
            print(f"| {r['model']} | FAIL: {r['error']} |" + " |" * (len(head) - 2))
            continue
        ratio = r["c_ms"] / r["ort_ms"] if r["ort_ms"] > 0 else float("inf")
        ratios.append(ratio)
        print(f"| {r['model']} | {r['compile_s']:.2f} | {r['build_s']:.2f} | {r['src_bytes'] / 1024:.1f} "
              f"| {r['arena_bytes'] / 1024:.1f} | {r['c_ms']:.3f} | {r['ort_ms']:.3f} | {ratio:.2f} "
              f"| {r['max_diff']:.2g} |")
    finite = [x for x in ratios if 0 < x < float("inf")]
    if finite:
        geo = math.exp(sum(math.log(x) for x in finite) / len(finite))
        print(f"\ngeometric mean C/ORT latency ratio over {len(finite)} models: {geo:.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*", help="only these model stems")
    ap.add_argument("--compiler", required=True, help="path of onnx-to-c")
    ap.add_argument("--public", default=str(common.DEFAULT_PUBLIC_DIR), help="directory of *.onnx")
    ap.add_argument("--cc", default="gcc", help="C compiler command (default gcc)")
    ap.add_argument("--iters", type=int, default=50, help="timed inferences per model (default 50)")
    ap.add_argument("--work", help="scratch directory (default: a temporary one)")
    ap.add_argument("--ort-dir", help="onnxruntime-node install dir (installed if needed)")
    ap.add_argument("--json", help="also write the rows to this JSON file")
    args = ap.parse_args()
    args.compiler = str(Path(args.compiler).resolve())

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
    print_table(rows)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    if not args.work:
        shutil.rmtree(work)
    sys.exit(1 if any("error" in r for r in rows) else 0)


if __name__ == "__main__":
    main()
