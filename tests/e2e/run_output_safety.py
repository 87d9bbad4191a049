#!/usr/bin/python3
"""Output safety of the onnx-to-c command line.

    /usr/bin/python3 tests/e2e/run_output_safety.py --compiler build/onnx-to-c [--work DIR]

Checks that
  * an output directory that is a file, or lies below a file, is refused (exit 1, one
    `error:` line) and the file is left as it was;
  * a --report path that is a directory is refused before any output is written;
  * a model file name full of shell and path characters gives output files named by a
    C identifier, inside the output directory and nowhere else;
  * a run interrupted by SIGINT or SIGTERM at many moments (through the compilation and
    the writing of a 4,000-node model's output) leaves either no file or every file,
    each identical to an uninterrupted run's, and no temporary file; one killed by
    SIGKILL (which cannot be caught) may leave a hidden temporary, but never a file
    under a real name that differs from the uninterrupted run's.
Prints one PASS/FAIL line per check; exits 1 on any failure.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import onnx

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from run_large_model import large_model  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMALL_MODEL = ROOT / "models" / "cnn_small" / "model.onnx"


def one_error_line(res):
    errors = [l for l in res.stderr.splitlines() if l.startswith("error:")]
    return len(errors) == 1 and len([l for l in res.stderr.splitlines() if l.strip()]) == 1


def check_refusals(compiler, work):
    problems = []
    afile = work / "a_file"
    afile.write_text("keep me")
    for label, out in (("output dir is a file", afile), ("output dir below a file", afile / "sub")):
        res = common.run([compiler, SMALL_MODEL, "-o", out], 60)
        if res.returncode != 1 or not one_error_line(res):
            problems.append(f"{label}: exit {res.returncode}, stderr {res.stderr.strip()[:200]!r}")
    if afile.read_text() != "keep me":
        problems.append("the file given as output directory was changed")
    report_dir = work / "report_is_dir"
    report_dir.mkdir()
    out = work / "out_report"
    res = common.run([compiler, SMALL_MODEL, "-o", out, "--report", report_dir], 60)
    if res.returncode != 1 or not one_error_line(res):
        problems.append(f"--report DIR: exit {res.returncode}, stderr {res.stderr.strip()[:200]!r}")
    if out.exists() and any(out.iterdir()):
        problems.append(f"--report DIR: files written: {sorted(p.name for p in out.iterdir())}")
    return problems


def check_hostile_model_file_name(compiler, work):
    folder = work / "models"
    folder.mkdir()
    model = folder / "..;$(touch pwned) `x` name.onnx"
    shutil.copy(SMALL_MODEL, model)
    out = work / "out_hostile_name"
    res = common.run([compiler, model, "-o", out], 60)
    if res.returncode != 0:
        return [common.describe_failure(res, "onnx-to-c")]
    problems = []
    made = sorted(p.name for p in out.iterdir())
    if not made or any(not all(c.isalnum() or c in "_." for c in n) for n in made):
        problems.append(f"output file names not C identifiers: {made}")
    if list(work.rglob("pwned")) or Path("pwned").exists():
        problems.append("the shell text in the model's file name was run")
    if sorted(p.name for p in folder.iterdir()) != [model.name]:
        problems.append(f"files appeared in the model's folder: {sorted(p.name for p in folder.iterdir())}")
    return problems


def listing(d):
    return {p.name: p.read_bytes() for p in d.iterdir()} if d.exists() else {}


def check_interrupts(compiler, work):
    model = work / "large.onnx"
    onnx.save(large_model(4000), str(model))
    reference_dir = work / "reference"
    t0 = time.perf_counter()
    res = common.run([compiler, model, "-o", reference_dir, "--emit-harness"], 300)
    total = time.perf_counter() - t0
    if res.returncode != 0:
        return [common.describe_failure(res, "onnx-to-c (uninterrupted)")]
    reference = listing(reference_dir)
    problems, outcomes = [], {"none": 0, "all": 0}
    fractions = [0.3, 0.7] + [0.9 + 0.025 * i for i in range(8)]
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        for i, f in enumerate(fractions):
            out = work / f"interrupted_{sig.name}_{i}"
            proc = subprocess.Popen([compiler, model, "-o", out, "--emit-harness"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(total * f)
            proc.send_signal(sig)
            proc.wait(timeout=300)
            got = listing(out)
            real = {n: b for n, b in got.items() if not n.startswith(".onnx-to-c.")}
            temps = sorted(set(got) - set(real))
            if temps and sig != signal.SIGKILL:
                problems.append(f"{sig.name} at {f:.2f} T: temporaries left: {temps}")
            if real and sig == signal.SIGKILL:
                bad = [n for n, b in real.items() if reference.get(n) != b]
                if bad:
                    problems.append(f"{sig.name} at {f:.2f} T: files differ from the reference: {bad}")
            elif real and real != reference:
                problems.append(f"{sig.name} at {f:.2f} T: a partial set of files: {sorted(real)}")
            outcomes["all" if real else "none"] += 1
    print(f"  interrupts: {outcomes['none']} runs left no file, {outcomes['all']} left every file "
          f"(uninterrupted run {total:.2f} s)")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", help="scratch directory (default: a temporary one)")
    args = ap.parse_args()
    compiler = str(Path(args.compiler).resolve())
    work = Path(args.work or tempfile.mkdtemp(prefix="onnx2c_output_"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    failed = 0
    for name, check in (("refusals", check_refusals), ("hostile model file name", check_hostile_model_file_name),
                        ("interrupted runs", check_interrupts)):
        problems = check(compiler, work)
        print(f"PASS {name}" if not problems else f"FAIL {name}: " + "; ".join(problems), flush=True)
        failed += bool(problems)
    if not failed and not args.work:
        shutil.rmtree(work)
    print(f"{3 - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
