#!/usr/bin/python3
"""The same model and options give the same bytes under load as idle: every search stops on work
units, not on the clock. Compiles each model (Cortex-M4, --io=arena, with the default options and
with --patches=auto) on an idle machine, then again with a busy loop on every core, and compares
the generated C and the reports (timings left out) byte for byte.

    run_load_identity.py --compiler onnx-to-c --work DIR [--public DIR] MODEL_DIR ...
"""
import argparse
import json
import multiprocessing
import os
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import describe_failure, run  # noqa: E402

OPTIONS = {"default": [], "patches": ["--patches=auto"]}


def spin(stop):
    while not stop.is_set():
        pass


def without_timings(value):
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items()
                if not (k == "ms" or k.endswith("_ms") or k == "timing_ms")}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def compile_all(compiler, cases, work):
    outputs, problems = {}, []
    for name, model in cases:
        for tag, flags in OPTIONS.items():
            out = work / name.replace("/", "_") / tag
            out.mkdir(parents=True, exist_ok=True)
            report = out / "report.json"
            res = run([compiler, model, "-o", out, "--name", "m", "--report", report,
                       "--target=cortex-m4", "--io=arena", *flags], timeout=600)
            if res.returncode != 0:
                problems.append(describe_failure(res, f"{name} ({tag})"))
                continue
            files = {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.suffix in (".c", ".h")}
            files["report"] = json.dumps(without_timings(json.loads(report.read_text())), sort_keys=True)
            outputs[(name, tag)] = files
    return outputs, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--public")
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    cases = [(Path(m).name, Path(m) / "model.onnx") for m in args.models]
    if args.public and Path(args.public).is_dir():
        cases += [(f"public/{p.stem}", p) for p in sorted(Path(args.public).glob("*.onnx"))]
    elif args.public:
        print(f"skip: public models: {args.public} is absent (a user's clone has no ../shared)")
    work = Path(args.work)
    idle, problems = compile_all(args.compiler, cases, work / "idle")
    stop = multiprocessing.Event()
    spinners = [multiprocessing.Process(target=spin, args=(stop,)) for _ in range(os.cpu_count() or 2)]
    for s in spinners:
        s.start()
    try:
        loaded, more = compile_all(args.compiler, cases, work / "loaded")
    finally:
        stop.set()
        for s in spinners:
            s.join()
    problems += more
    for key, files in idle.items():
        if key in loaded and loaded[key] != files:
            changed = [f for f in files if loaded[key].get(f) != files[f]]
            problems.append(f"{key[0]} ({key[1]}): {', '.join(changed)} differ under load")
    for p in problems:
        print(f"FAIL: {p}")
    print(f"{len(idle)} compiles idle and under load on {len(spinners)} busy cores, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
