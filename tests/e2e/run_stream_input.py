#!/usr/bin/python3
"""--stream-input end to end: the firmware's row fetches give the outputs of the whole input.

    run_stream_input.py --compiler build/onnx-to-c --work DIR [--cc gcc] [--max-ram P,S]
        MODEL.onnx[:OPT,OPT...]...

For each model (compiler options after the colon, comma-separated; --io=arena and
--patches=auto always): onnx-to-c compiles it with --emit-harness without and with
--stream-input, and with --stream-input --arena-guard; the harness's NAME_fetch_input_rows
copies the asked rows out of the whole input read from its file (and fails on a row out of
range). Checks: the three programs and the unpatched build (gcc -std=c99 -pedantic -Wall
-Wextra -Werror -ffp-contract=off) write bit-identical outputs on seeded inputs (normal(0,1)
floats, uniform 8-bit codes for an 8-bit input); the streamed report names the input and
verifies; its total RAM is below the unstreamed build's (with --max-ram, the patched and the
streamed build's total RAM at most P and S bytes). Prints one line per model with both
figures; exit 1 on any failure.
"""
import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

CFLAGS = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O2", "-ffp-contract=off"]
BASE = ["--io=arena", "--patches=auto", "--emit-harness", "--name", "net", "--time-limit=3600"]


class Failure(Exception):
    pass


def build_and_run(args, model, options, work, tag, in_files, n_out):
    gen, report = work / tag, work / f"{tag}.json"
    res = common.run([args.compiler, model, "-o", gen, "--report", report, *BASE, *options], 1800)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, f"onnx-to-c ({tag})"))
    prog = work / f"{tag}_prog"
    res = common.run([args.cc] + CFLAGS + sorted(str(p) for p in gen.glob("*.c")) + ["-lm", "-o", prog], 900)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, f"build ({tag})"))
    outs = [work / f"{tag}_out_{i}.bin" for i in range(n_out)]
    res = common.run([prog, *in_files, *outs], 600)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, f"program ({tag})"))
    return [o.read_bytes() for o in outs], json.loads(report.read_text()), (gen / "net.h").read_text()


def write_inputs(header, model, work):
    """Inputs of the sizes and types the header states (an 8-bit input: uniform codes)."""
    rng = np.random.default_rng(common.model_seed(model.stem))
    _, floats = common.random_inputs(model, common.model_seed(model.stem))
    files = []
    for i, x in enumerate(floats):
        typed = re.search(rf"^#define NET_INPUT_{i}_TYPE (u?int8)_t$", header, re.M)
        arr = x
        if typed:
            info = np.iinfo(np.dtype(typed.group(1)))
            arr = rng.integers(info.min, info.max + 1, size=x.shape).astype(info.dtype)
        files.append(work / f"in_{i}.bin")
        common.write_raw(arr, files[-1])
    return files


def run_case(args, spec):
    path, _, opts = spec.partition(":")
    model = Path(path)
    options = [o for o in opts.split(",") if o]
    label = model.parent.name if model.name == "model.onnx" else f"{model.parent.name}/{model.stem}"
    label += "".join(f" {o}" for o in options)
    work = Path(args.work) / label.replace(" ", "_")
    work.mkdir(parents=True, exist_ok=True)
    n_out = len(common.graph_io(model)[1])
    res = common.run([args.compiler, model, "-o", work / "probe", *BASE, *options, "--stream-input"], 1800)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, "onnx-to-c (--stream-input)"))
    in_files = write_inputs((work / "probe" / "net.h").read_text(), model, work)
    plain, plain_report, _ = build_and_run(args, model, options, work, "plain", in_files, n_out)
    streamed, report, header = build_and_run(args, model, options + ["--stream-input"], work, "streamed",
                                             in_files, n_out)
    guarded, _, _ = build_and_run(args, model, options + ["--stream-input", "--arena-guard"], work, "guarded",
                                  in_files, n_out)
    if streamed != plain or guarded != plain:
        raise Failure("the streamed outputs differ from the unstreamed build's")
    unpatched, _, _ = build_and_run(args, model, options + ["--patches=off"], work, "unpatched", in_files, n_out)
    if unpatched != plain:
        raise Failure("the patched outputs differ from the unpatched build's")
    if report["stream_input"] < 0 or "_fetch_input_rows(" not in header:
        raise Failure("the streamed build names no streamed input")
    res = common.run([args.compiler, "verify", work / "streamed.json", model], 600)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, "onnx-to-c verify"))
    before, after = plain_report["total_ram_bytes"], report["total_ram_bytes"]
    if after >= before:
        raise Failure(f"total RAM {after} B streamed is not below {before} B")
    if args.max_ram and (before > args.max_ram[0] or after > args.max_ram[1]):
        raise Failure(f"total RAM {before} B patched, {after} B streamed: above the limits {args.max_ram}")
    grid = "x".join(str(g) for g in report["patches"]["grid"])
    return (f"PASS {label}: outputs bit-identical (arena guard clean), total RAM {before} -> {after} B "
            f"(grid {grid}, +{report['patches']['extra_macs']} MACs), report verifies")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--max-ram", type=lambda s: [int(x) for x in s.split(",")], default=None,
                    help="PATCHED,STREAMED: the most total RAM each build may take, in bytes")
    args = ap.parse_args()
    failed = 0
    for spec in args.models:
        if not Path(spec.partition(":")[0]).exists():
            print(f"skip: {spec.partition(':')[0]} is absent", flush=True)
            continue
        try:
            print(run_case(args, spec), flush=True)
        except Failure as e:
            failed += 1
            print(f"FAIL {spec}: {e}", flush=True)
    print(f"{len(args.models) - failed} of {len(args.models)} model(s) passed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
