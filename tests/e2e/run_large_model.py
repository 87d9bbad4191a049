#!/usr/bin/python3
"""Compile a generated 10,000-node model within the limits.

    /usr/bin/python3 tests/e2e/run_large_model.py --compiler build/onnx-to-c [--work DIR]
        [--nodes N] [--max-seconds S] [--max-rss-mib M]

The model mixes a long residual chain with wide fan-out (a hundred branches live at
once), on small tensors, so that the import, the passes, the scheduler and the arena
planner all see N nodes. onnx-to-c must compile it with the default options, with
--time-limit=0.5 and with --patches=auto (a 15% MAC budget), each run within --max-seconds of wall time and --max-rss-mib of peak
memory (the child's own rusage). Prints the measurements; exits 1 on any failure.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

WIDTH = 100  # branches in each fan-out block


def large_model(n_nodes):
    """Residual blocks (Relu, Mul, Add, Tanh) alternating with fan-out blocks of WIDTH
    one-node branches summed back together, until n_nodes nodes."""
    scale = numpy_helper.from_array(np.full([1, 16], 0.5, np.float32), "scale")
    nodes, x, k = [], "x", 0

    def add(op, inputs):
        nonlocal k
        k += 1
        out = f"t{k}"
        nodes.append(helper.make_node(op, inputs, [out], name=f"n{k}"))
        return out

    while len(nodes) < n_nodes:
        if (len(nodes) // 1000) % 2 == 0:
            a = add("Relu", [x])
            b = add("Mul", [a, "scale"])
            x = add("Tanh", [add("Add", [b, x])])
        else:
            branches = [add("Sigmoid" if i % 2 else "Relu", [x]) for i in range(WIDTH)]
            total = branches[0]
            for br in branches[1:]:
                total = add("Add", [total, br])
            x = add("Mul", [total, "scale"])
    del nodes[n_nodes:]
    graph = helper.make_graph(nodes, "large", [helper.make_tensor_value_info("x", TP.FLOAT, [1, 16])],
                              [helper.make_tensor_value_info(nodes[-1].output[0], TP.FLOAT, [1, 16])],
                              [scale])
    model = helper.make_model(graph, producer_name="onnx-to-c tests/e2e/run_large_model.py",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    return model


def measured_run(cmd, timeout):
    """(exit code, stderr, wall seconds, peak RSS in MiB) of one child; wait4 gives
    the resource usage of that child alone. Killed after `timeout` seconds."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    return proc.returncode, stderr, time.perf_counter() - t0, usage.ru_maxrss / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", help="scratch directory (default: a temporary one)")
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--max-seconds", type=float, default=120)
    ap.add_argument("--max-rss-mib", type=float, default=1024)
    args = ap.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="onnx2c_large_"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    model = work / "large.onnx"
    onnx.save(large_model(args.nodes), str(model))

    failed = 0
    for label, extra in (("default options", []), ("--time-limit=0.5", ["--time-limit=0.5"]),
                         ("--patches=auto", ["--patches=auto", "--recompute-mac-budget=15"])):
        out = work / f"out_{label.strip('-').replace('=', '_').replace('.', '_')}"
        code, stderr, seconds, rss_mib = measured_run(
            [args.compiler, str(model), "-o", str(out)] + extra, args.max_seconds * 2)
        problems = []
        if code != 0:
            problems.append(f"onnx-to-c exit {code}: {stderr.strip()[:300]}")
        elif not (out / "large.c").exists():
            problems.append("no large.c written")
        if seconds > args.max_seconds:
            problems.append(f"took {seconds:.1f} s > {args.max_seconds} s")
        if rss_mib > args.max_rss_mib:
            problems.append(f"peak RSS {rss_mib:.0f} MiB > {args.max_rss_mib} MiB")
        status = "FAIL" if problems else "PASS"
        print(f"{status} {args.nodes} nodes, {label}: {seconds:.2f} s, peak RSS {rss_mib:.0f} MiB"
              + (f": {'; '.join(problems)}" if problems else ""), flush=True)
        failed += bool(problems)
    if not failed and not args.work:
        shutil.rmtree(work)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
