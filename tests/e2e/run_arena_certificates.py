#!/usr/bin/python3
"""The arena a firmware pays is certified: every model compiled for the Cortex-M4 with its inputs
and outputs in the arena, with the default options and with --patches=auto, reports
arena_certified or arena_proven_optimal, and verify accepts the report; no single flag that costs
no extra MACs (--overlap=off, --layout=nchw, --layout=nhwc, --planner=greedy,
--kernel-scratch-budget=0) gives a smaller arena than the defaults.

    run_arena_certificates.py --compiler onnx-to-c --work DIR [--public DIR] [--int8 DIR]
        [--reach-peak NAME,...] [--max-arena NAME:BYTES,...] MODEL_DIR ...

MODEL_DIR: a folder of models (NAME/model.onnx) or one such model. --reach-peak: models whose
arena must equal their order's modeled peak (the fixed-offset structures the planning search
resolves: copied concat slices, a contract left out); --max-arena: arena limits. Public and int8
models are named public/NAME and int8/NAME; a missing folder is skipped, and so are the names in
it, saying so.
"""
import argparse
import concurrent.futures
import json
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import describe_failure, run  # noqa: E402

BASE = ["--target=cortex-m4", "--io=arena"]
SINGLE_FLAGS = ["--overlap=off", "--layout=nchw", "--layout=nhwc", "--planner=greedy",
                "--kernel-scratch-budget=0"]


def models_in(arg):
    p = Path(arg)
    if (p / "model.onnx").exists():
        return [(p.name, p / "model.onnx")]
    return sorted((d.name, d / "model.onnx") for d in p.iterdir() if (d / "model.onnx").exists())


def compile_report(compiler, name, model, work, tag, flags):
    out = work / name.replace("/", "_") / tag
    out.mkdir(parents=True, exist_ok=True)
    report = out / "report.json"
    res = run([compiler, model, "-o", out, "--name", "m", "--report", report, *BASE, *flags], timeout=600)
    if res.returncode != 0:
        return None, describe_failure(res, f"{name} {' '.join(flags)}")
    return json.loads(report.read_text()), report


def check_model(compiler, name, model, work, reach_peak, max_arena):
    problems, lines = [], []
    reports = {}
    for tag, flags in [("default", []), ("patches", ["--patches=auto"])] + \
                      [(f.strip("-").replace("=", "_"), [f]) for f in SINGLE_FLAGS]:
        r, where = compile_report(compiler, name, model, work, tag, flags)
        if r is None:
            problems.append(where)
            continue
        reports[tag] = r
        if tag in ("default", "patches"):
            if not (r["arena_certified"] or r["arena_proven_optimal"]):
                problems.append(f"{name} ({tag}): arena {r['arena_bytes']} neither certified nor proven "
                                f"(arena bound {r['arena_lower_bound_bytes']})")
            res = run([compiler, "verify", where, model], timeout=600)
            if res.returncode != 0:
                problems.append(describe_failure(res, f"verify {name} ({tag})"))
    d = reports.get("default")
    if d:
        for tag, r in reports.items():
            if tag not in ("default", "patches") and r["arena_bytes"] < d["arena_bytes"]:
                problems.append(f"{name}: --{tag} gives {r['arena_bytes']} bytes, less than the defaults' "
                                f"{d['arena_bytes']}")
        if name in reach_peak and d["arena_bytes"] != d["peak_bytes"]:
            problems.append(f"{name}: arena {d['arena_bytes']} is not the peak {d['peak_bytes']}")
        if name in max_arena and d["arena_bytes"] > max_arena[name]:
            problems.append(f"{name}: arena {d['arena_bytes']} above {max_arena[name]}")
        p = reports.get("patches", d)
        claim = lambda r: "certified" if r["arena_certified"] else "proven" if r["arena_proven_optimal"] else "-"
        lines.append(f"{name}: arena {d['arena_bytes']} peak {d['peak_bytes']} bound "
                     f"{d['arena_lower_bound_bytes']} {claim(d)}; --patches=auto {p['arena_bytes']} {claim(p)}")
    return problems, lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--public")
    ap.add_argument("--int8")
    ap.add_argument("--reach-peak", default="")
    ap.add_argument("--max-arena", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    cases = [c for m in args.models for c in models_in(m)]
    for prefix, folder in (("public", args.public), ("int8", args.int8)):
        if folder and Path(folder).is_dir():
            cases += [(f"{prefix}/{p.stem}", p) for p in sorted(Path(folder).glob("*.onnx"))]
        elif folder:
            print(f"skip: {prefix} models: {folder} is absent (a user's clone has no ../shared)")
    names = {n for n, _ in cases}
    reach_peak = {n for n in args.reach_peak.split(",") if n}
    max_arena = {n: int(b) for n, b in (kv.rsplit(":", 1) for kv in args.max_arena.split(",") if kv)}
    for n in sorted((reach_peak | set(max_arena)) - names):
        if n.startswith(("public/", "int8/")):
            print(f"skip: {n}: its folder is absent")
        else:
            print(f"FAIL: named model {n} not given")
            return 1
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda c: check_model(args.compiler, c[0], c[1], work, reach_peak, max_arena),
                                cases))
    problems = [p for ps, _ in results for p in ps]
    for _, lines in results:
        for line in lines:
            print(line)
    for p in problems:
        print(f"FAIL: {p}")
    print(f"{len(cases)} models, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
