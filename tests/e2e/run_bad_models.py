#!/usr/bin/python3
"""Check that onnx-to-c rejects broken models cleanly.

    /usr/bin/python3 tests/e2e/run_bad_models.py --compiler build/onnx-to-c [--work DIR] models/bad

For every row of BAD_DIR/cases.tsv (file, exit code, problem, node, args, comment), runs
`onnx-to-c BAD_DIR/FILE -o EMPTY_DIR --emit-harness [ARGS]` and checks that
  * it exits with the expected code and was not killed by a signal,
  * stderr is exactly one line of printable characters, starting with `error:`,
    containing the problem substring (case-insensitive) and, unless node is '-',
    naming node '<node>'; with no sanitizer report,
  * EMPTY_DIR is still empty.
It also checks bad command lines: exit 2 and exactly one `error:` line on stderr
(usage text may follow). Prints one PASS/FAIL line per case, then `N passed, M failed`.
"""
import argparse
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

TIMEOUT = 120
SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer",
                   "MemorySanitizer", "ThreadSanitizer", "runtime error:")


def read_cases(bad_dir):
    cases = []
    for lineno, line in enumerate((bad_dir / "cases.tsv").read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) < 5:
            common.fail(f"cases.tsv:{lineno}: expected file, exit code, problem, node, args[, comment]")
        substrings = [fields[2]] + ([f"node '{fields[3]}'"] if fields[3] != "-" else [])
        args = shlex.split(fields[4]) if fields[4] != "-" else []
        cases.append((fields[0], int(fields[1]), substrings, args, fields[5] if len(fields) > 5 else ""))
    return cases


def check_stderr(res, substrings, strict):
    """Reason the compiler's stderr is wrong, or None."""
    for mark in SANITIZER_MARKS:
        if mark in res.stderr:
            return f"sanitizer report on stderr ({mark})"
    lines = [l for l in res.stderr.splitlines() if l.strip()]
    errors = [l for l in lines if l.startswith("error:")]
    if len(errors) != 1:
        return f"{len(errors)} lines start with 'error:' on stderr, expected 1: {lines[:3]}"
    if strict and len(lines) != 1:
        return f"stderr has {len(lines)} lines, expected only the error line: {lines[:3]}"
    for substring in substrings:
        if substring.lower() not in errors[0].lower():
            return f"error line lacks {substring!r}: {errors[0]!r}"
    if strict and not all(c.isprintable() for c in errors[0]):
        return f"error line has unprintable characters: {errors[0]!r}"
    return None


def run_one(compiler, argv, out_dir, want_code, substrings, strict):
    """Run the compiler; return None if all checks pass, else the reason."""
    out_dir.mkdir(parents=True)
    res = common.run([compiler] + argv, TIMEOUT)
    if res.returncode is None:
        return f"timed out after {TIMEOUT} s"
    if res.returncode < 0:
        return f"killed by signal {-res.returncode}"
    if res.returncode != want_code:
        first = res.stderr.strip().splitlines()[0][:200] if res.stderr.strip() else "(empty)"
        return f"exit code {res.returncode}, expected {want_code}; stderr: {first}"
    reason = check_stderr(res, substrings, strict)
    if reason:
        return reason
    left = sorted(p.name for p in out_dir.iterdir()) if out_dir.exists() else []
    if left:
        return f"files left in the output directory: {left[:5]}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bad_dir", help="directory with cases.tsv (models/bad)")
    ap.add_argument("--compiler", required=True, help="path of onnx-to-c")
    ap.add_argument("--work", help="scratch directory (default: a temporary one)")
    args = ap.parse_args()
    if not os.access(args.compiler, os.X_OK):
        common.fail(f"compiler {args.compiler} not found or not executable")
    compiler = str(Path(args.compiler).resolve())
    bad_dir = Path(args.bad_dir).resolve()
    work = Path(args.work or tempfile.mkdtemp(prefix="onnx2c_bad_")).resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)

    model, OUT = str(bad_dir / "cycle.onnx"), None  # OUT: replaced by the case's empty dir
    usage_cases = [
        ("usage: no arguments", []),
        ("usage: no -o", [model]),
        ("usage: unknown option", [model, "-o", OUT, "--frobnicate"]),
        ("usage: -o without a value", [model, "-o"]),
    ]

    passed = failed = 0
    for i, (fname, code, substrings, extra, comment) in enumerate(read_cases(bad_dir)):
        out = work / f"case_{i}"
        reason = run_one(compiler, [str(bad_dir / fname), "-o", str(out), "--emit-harness"] + extra,
                         out, code, substrings, strict=True)
        ok = reason is None
        print(f"PASS {fname}" if ok else f"FAIL {fname} ({comment}): {reason}", flush=True)
        passed += ok
        failed += not ok
    for i, (name, argv) in enumerate(usage_cases):
        out = work / f"usage_{i}"
        argv = [str(out) if a is OUT else a for a in argv]
        reason = run_one(compiler, argv, out, 2, [], strict=False)
        ok = reason is None
        print(f"PASS {name}" if ok else f"FAIL {name}: {reason}", flush=True)
        passed += ok
        failed += not ok

    if not failed and not args.work:
        shutil.rmtree(work)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
