#!/usr/bin/python3
"""Runs models on emulated Cortex-M boards (scripts/run-on-qemu.sh) and checks that the outputs
are bit-identical to an x86-64 build of the same generated C.

    run_cortex_m.py --compiler build/onnx-to-c --work DIR models/cnn_small:cortex-m4,cortex-m7 \\
        [--public DIR dscnn_kws_49x10:cortex-m4,cortex-m3]

Each argument is MODEL:CPU,CPU,... where MODEL is a model directory (model.onnx, and
test_data_set_0 whose inputs are used and whose outputs are checked with a tolerance as a sanity
check) or, after --public, the stem of a .onnx file in that directory (seeded random inputs; all
skipped when the directory is absent). With --expect-link-failure BUDGET=N the models must instead
fail to link with the linker script's message for that budget (ram, arena or flash). --options
passes compiler options (comma-separated) to every build, e.g. --options=--patches=always.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import sys
from pathlib import Path

import numpy as np

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

RUN_ON_QEMU = common.ROOT / "scripts" / "run-on-qemu.sh"
# -Og: the host build is only compared bit for bit with the firmware (no optimization
# level changes the bits without contraction or fast-math), and builds faster than -O2.
HOST_FLAGS = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-Og", "-ffp-contract=off"]


def model_inputs(model_path, model_dir):
    """Inputs from test_data_set_0 when present (and the reference outputs), else seeded random."""
    data = model_dir / "test_data_set_0" if model_dir else None
    if data and data.is_dir():
        ins = [common.load_pb(p)[1] for p in sorted(glob.glob(str(data / "input_*.pb")))]
        refs = [common.load_pb(p)[1] for p in sorted(glob.glob(str(data / "output_*.pb")))]
        return ins, refs
    _, arrays = common.random_inputs(model_path, common.model_seed(model_path.stem))
    return arrays, None


def first_difference(a, b):
    n = min(len(a), len(b))
    diff = np.flatnonzero(np.frombuffer(a[:n], np.uint8) != np.frombuffer(b[:n], np.uint8))
    if len(a) != len(b) and diff.size == 0:
        return f"sizes differ: {len(a)} vs {len(b)} bytes"
    word = int(diff[0]) // 4 * 4
    return (f"{diff.size} bytes differ; first at byte {int(diff[0])}: word "
            f"0x{a[word:word + 4][::-1].hex()} on the target, 0x{b[word:word + 4][::-1].hex()} on x86-64")


def check_model_on_cpu(args, name, model_path, model_dir, cpu):
    """Returns (ok, message)."""
    work = Path(args.work) / name / cpu
    work.mkdir(parents=True, exist_ok=True)
    inputs, refs = model_inputs(model_path, model_dir)
    _, outs = common.graph_io(model_path)
    in_files = [work / f"in_{i}.bin" for i in range(len(inputs))]
    for arr, f in zip(inputs, in_files):
        common.write_raw(arr, f)
    qemu_outs = [work / f"qemu_out_{i}.bin" for i in range(len(outs))]
    cmd = ["bash", RUN_ON_QEMU, model_path, "--cpu", cpu, "--keep", work / "build", "--timeout",
           str(args.timeout)]
    if args.expect_link_failure:
        kind, limit = args.expect_link_failure.split("=")
        res = common.run(cmd + [f"--{kind}-budget", limit] + in_files + qemu_outs, args.timeout + 300,
                         env={"ONNX_TO_C": args.compiler})
        wanted = {"ram": "exceeds the RAM budget", "arena": "exceeds the arena budget",
                  "flash": "exceeds the flash budget"}[kind]
        if res.returncode == 1 and wanted in res.stderr and not any(f.exists() for f in qemu_outs):
            return True, f"link refused as expected ({kind} budget {limit} B)"
        return False, f"expected exit 1 and '{wanted}', got {res.returncode}: {res.stderr[-600:]}"

    res = common.run(cmd + ["--stats", work / "stats.json"] + in_files + qemu_outs + ["--", "--emit-harness", *args.options],
                     args.timeout + 300, env={"ONNX_TO_C": args.compiler})
    if res.returncode != 0:
        budget = [l for l in res.stderr.splitlines() if "onnx-to-c firmware:" in l]
        return False, budget[0] if budget else common.describe_failure(res, "run-on-qemu.sh")
    # The x86-64 build of the very sources the firmware was built from.
    gen = work / "build" / "gen"
    host = work / "host"
    build = common.run([args.cc] + HOST_FLAGS + sorted(str(p) for p in gen.glob("*.c")) + ["-lm", "-o", host],
                       300)
    if build.returncode != 0:
        return False, common.describe_failure(build, f"{args.cc} (x86-64 build)")
    host_outs = [work / f"host_out_{i}.bin" for i in range(len(outs))]
    ran = common.run([host] + in_files + host_outs, 300)
    if ran.returncode != 0:
        return False, common.describe_failure(ran, "the x86-64 harness")
    for i, (q, h) in enumerate(zip(qemu_outs, host_outs)):
        a, b = q.read_bytes(), h.read_bytes()
        if a != b:
            return False, f"output {i}: {first_difference(a, b)}"
    if refs:
        for i, ((_, dtype), ref) in enumerate(zip(outs, refs)):
            got = common.read_raw(qemu_outs[i], dtype, ref.shape)
            ok, msg, _ = common.compare(got, ref, 1e-3, 1e-5)
            if not ok:
                return False, f"output {i} against the reference: {msg}"
    stats = json.loads((work / "stats.json").read_text())
    return True, (f"bit-identical to x86-64; {stats['run_instructions']} instructions, flash "
                  f"{stats['flash_bytes']} B, RAM {stats['ram_bytes']} B, stack {stats['stack_bytes']} B")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*", help="MODEL_DIR:CPU,CPU (project models)")
    ap.add_argument("--public", nargs="+", metavar=("DIR", "STEM:CPUS"),
                    help="a directory of .onnx files, then STEM:CPU,CPU entries")
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cc", default="gcc", help="host C compiler for the x86-64 build")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=600, help="seconds per QEMU run")
    ap.add_argument("--expect-link-failure", metavar="KIND=BYTES",
                    help="ram=N, arena=N or flash=N: each model must fail to link with that budget")
    ap.add_argument("--options", default="", help="comma-separated compiler options for every build")
    args = ap.parse_args()
    args.compiler = os.path.abspath(args.compiler)
    args.options = [o for o in args.options.split(",") if o]

    jobs = []  # (name, model_path, model_dir, cpu)
    for spec in args.models:
        path, cpus = spec.rsplit(":", 1)
        d = Path(path)
        jobs += [(d.name, d / "model.onnx", d, cpu) for cpu in cpus.split(",")]
    if args.public:
        pub = Path(args.public[0])
        if not pub.is_dir():
            print(f"skipped: public models ({pub} is absent)")
        else:
            for spec in args.public[1:]:
                stem, cpus = spec.rsplit(":", 1)
                jobs += [(stem, pub / f"{stem}.onnx", None, cpu) for cpu in cpus.split(",")]
    if not jobs:
        common.fail("no models given")

    failures = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(check_model_on_cpu, args, *job): job for job in jobs}
        for fut in concurrent.futures.as_completed(futures):
            name, _, _, cpu = futures[fut]
            try:
                ok, msg = fut.result()
            except Exception as e:  # a harness bug must fail the test, not hang it
                ok, msg = False, f"{type(e).__name__}: {e}"
            print(f"{'PASS' if ok else 'FAIL'} {name} {cpu}: {msg}", flush=True)
            failures += not ok
    print(f"{len(jobs) - failures} of {len(jobs)} passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
