#!/usr/bin/python3
"""Arena benchmark on the public models: how small the arena gets, and from what.

    /usr/bin/python3 bench/bench_arena.py --compiler build/onnx-to-c [--public DIR] [--work DIR]

For every DIR/*.onnx (default ../shared/models/public from the repo root; skipped cleanly
if absent) it compiles the model three times, in one run:
  onnx-to-c MODEL --report R.json --kernel-scratch-budget=0
        (every alias, overlap contracts on, scratch-free kernels: like the TFLite-style
        figure, the activations alone)
  onnx-to-c MODEL --report R.json --kernel-scratch-budget=0 --overlap=off
        (every alias but input/output overlap)
  onnx-to-c MODEL --report R.json  (the default: the fast kernels' scratch included)
and prints, from the reports:
  linear       every buffer its own bytes ("linear_arena_bytes")
  tflite       TFLite Micro's planner: file order, activations fused, no other aliasing,
               greedy-by-size offsets ("tflite_style_arena_bytes")
  no overlap   our arena with overlap contracts off (its own best order)
  ours         our arena ("arena_bytes")
  + scratch    our arena with the default kernel scratch budget (the band convolutions)
  bound        the certified lower bound of the order's peak ("lower_bound_bytes")
  ours/tflite, no-overlap/tflite and the mean of ours/tflite over the models.
"""
import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
import common  # noqa: E402


def report(compiler, model, work, extra):
    out = work / "gen"
    rep = work / "report.json"
    res = common.run([compiler, model, "-o", out, "--report", rep] + extra, 900)
    if res.returncode != 0:
        raise RuntimeError(common.describe_failure(res, f"onnx-to-c {model.name}"))
    return json.loads(rep.read_text())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--public", default=str(Path(__file__).resolve().parents[2] / "shared/models/public"))
    ap.add_argument("--work")
    args = ap.parse_args()
    public = Path(args.public)
    models = sorted(public.glob("*.onnx")) if public.is_dir() else []
    if not models:
        print(f"no public models in {public}: nothing to measure")
        return 0
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="oc-bench-arena-"))
    print("| model | linear | tflite | no overlap | ours | bound | ours/tflite | no-overlap/tflite | certified "
          "| + scratch |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    ratios = []
    for m in models:
        on = report(args.compiler, m.resolve(), work / m.stem / "on", ["--kernel-scratch-budget=0"])
        off = report(args.compiler, m.resolve(), work / m.stem / "off",
                     ["--kernel-scratch-budget=0", "--overlap=off"])
        fast = report(args.compiler, m.resolve(), work / m.stem / "fast", [])
        tfl = on["tflite_style_arena_bytes"]
        ratio = on["arena_bytes"] / tfl
        ratios.append(ratio)
        print(f"| {m.stem} | {on['linear_arena_bytes']} | {tfl} | {off['arena_bytes']} | "
              f"{on['arena_bytes']} | {on['lower_bound_bytes']} | {ratio:.3f} | "
              f"{off['arena_bytes'] / tfl:.3f} | {'yes' if on['certified_optimal'] else 'no'} | "
              f"{fast['arena_bytes']} |")
        if on["arena_bytes"] > tfl:
            print(f"WARNING: {m.stem}: our arena is above the TFLite-style one")
    print(f"\nmean ours/tflite over {len(ratios)} models: {sum(ratios) / len(ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
