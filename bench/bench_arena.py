#!/usr/bin/python3
"""Arena benchmark on the public models: how small the arena gets, and from what.

    /usr/bin/python3 bench/bench_arena.py --compiler build/onnx-to-c [--public DIR] [--work DIR]

For every DIR/*.onnx (default ../shared/models/public from the repo root; skipped cleanly
if absent) it compiles the model four times, in one run:
  onnx-to-c MODEL --report R.json --kernel-scratch-budget=0
        (every alias, overlap contracts on, scratch-free kernels: like the TFLite-style
        figure, the activations alone; inputs and outputs in caller buffers)
  onnx-to-c MODEL --report R.json --kernel-scratch-budget=0 --overlap=off
        (every alias but input/output overlap)
  onnx-to-c MODEL --report R.json  (the default: the fast kernels' scratch in free bytes)
  onnx-to-c MODEL --report R.json --io=arena  (inputs and outputs in the arena)
and prints two tables. The arena, from the reports:
  linear       every buffer its own bytes ("linear_arena_bytes")
  tflite       TFLite Micro's planner: file order, activations fused, no other aliasing,
               greedy-by-size offsets ("tflite_style_arena_bytes")
  no overlap   our arena with overlap contracts off (its own best order)
  ours         our arena ("arena_bytes")
  + scratch    our arena with the default kernel scratch (the band convolutions, only in
               bytes the plan leaves free: equal to ours)
  bound        the certified lower bound of the order's peak ("lower_bound_bytes")
  ours/tflite, no-overlap/tflite and the mean of ours/tflite over the models.
Total RAM, what a firmware pays for activations ("total_ram_bytes"):
  tflite+io    TFLite Micro's arena holding the inputs and outputs too
               ("tflite_style_io_arena_bytes")
  caller       our arena plus the caller's input and output buffers (--io=caller)
  arena        our arena holding the inputs and outputs (--io=arena), its lower bound and
               certificate
  caller/tflite+io, arena/tflite+io and their means.
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
    totals = {}
    for m in models:
        on = report(args.compiler, m.resolve(), work / m.stem / "on", ["--kernel-scratch-budget=0"])
        off = report(args.compiler, m.resolve(), work / m.stem / "off",
                     ["--kernel-scratch-budget=0", "--overlap=off"])
        fast = report(args.compiler, m.resolve(), work / m.stem / "fast", [])
        io = report(args.compiler, m.resolve(), work / m.stem / "io", ["--io=arena"])
        totals[m.stem] = (io["tflite_style_io_arena_bytes"], fast, io)
        tfl = on["tflite_style_arena_bytes"]
        ratio = on["arena_bytes"] / tfl
        ratios.append(ratio)
        print(f"| {m.stem} | {on['linear_arena_bytes']} | {tfl} | {off['arena_bytes']} | "
              f"{on['arena_bytes']} | {on['lower_bound_bytes']} | {ratio:.3f} | "
              f"{off['arena_bytes'] / tfl:.3f} | {'yes' if on['certified_optimal'] else 'no'} | "
              f"{fast['arena_bytes']} |")
        if on["arena_bytes"] > tfl:
            print(f"WARNING: {m.stem}: our arena is above the TFLite-style one")
    print(f"\nmean ours/tflite over {len(ratios)} models: {sum(ratios) / len(ratios):.3f}\n")
    print("| model | tflite+io | caller | arena | bound | certified | caller/tflite+io | arena/tflite+io |")
    print("|---|---:|---:|---:|---:|---|---:|---:|")
    caller_ratios, arena_ratios = [], []
    for name, (tfl_io, caller, io) in totals.items():
        caller_ratios.append(caller["total_ram_bytes"] / tfl_io)
        arena_ratios.append(io["total_ram_bytes"] / tfl_io)
        print(f"| {name} | {tfl_io} | {caller['total_ram_bytes']} | {io['total_ram_bytes']} | "
              f"{io['lower_bound_bytes']} | {'yes' if io['certified_optimal'] else 'no'} | "
              f"{caller_ratios[-1]:.3f} | {arena_ratios[-1]:.3f} |")
        if io["total_ram_bytes"] > tfl_io:
            print(f"WARNING: {name}: our total RAM is above the TFLite-style arena with inputs and outputs")
    print(f"\nmean total RAM against tflite+io over {len(totals)} models: caller "
          f"{sum(caller_ratios) / len(caller_ratios):.3f}, arena {sum(arena_ratios) / len(arena_ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
