#!/usr/bin/python3
"""End-to-end test: compile ONNX models with onnx-to-c, build the generated C and compare
its outputs with the reference outputs.

    /usr/bin/python3 tests/e2e/run_models.py --compiler build/onnx-to-c [--cc gcc] [--cc clang-14]
        [--work DIR] [--jobs N] [--rtol R] [--atol A] [--public DIR] [--ort-dir DIR] MODEL_DIR...

A MODEL_DIR holds model.onnx and test_data_set_*/{input,output}_<i>.pb; a directory
without model.onnx (e.g. models/) stands for all its subdirectories that have one.
For each model (and each --cc):
  * onnx-to-c MODEL -o OUT --emit-harness --report R.json must exit 0, twice, into two
    directories, and the two sets of generated files must be byte-identical;
  * the report must have integer "arena_bytes" and "macs";
  * CC -std=c99 -pedantic -Wall -Wextra -Werror -O2 -ffp-contract=off OUT/*.c -lm must build
    (options given in CC come after these, e.g. --cc "gcc -fsanitize=address -O1");
  * ./prog IN... OUT... on every test data set must match: |out-ref| <= atol + rtol*|ref|
    for floats (NaN == NaN), exact for integers and bool.
--compile-flag OPT passes OPT to onnx-to-c (e.g. --arena-guard: every statement's writes
are checked against the memory model while the model runs).
--public DIR adds every DIR/*.onnx, fed seeded normal(0,1) inputs, with references from
ONNX Runtime (scripts/ort_run.js; $ONNX_TO_C_ORT_DIR or --ort-dir); a missing DIR is skipped.
Prints one PASS/FAIL line per model and finally `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

CFLAGS = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O2", "-ffp-contract=off"]
COMPILE_TIMEOUT = 600
BUILD_TIMEOUT = 900
RUN_TIMEOUT = 300


class Case:
    """One model to test. datasets() yields (name, input arrays, reference arrays)."""

    def __init__(self, name, model, data_dir=None, public=False):
        self.name, self.model, self.data_dir, self.public = name, Path(model), data_dir, public

    def datasets(self, work):
        if self.public:
            names, inputs = common.random_inputs(self.model, common.model_seed(self.model.stem))
            refs = common.ort_reference(self.model, inputs, work / "ort")
            return [("random", inputs, refs)]
        sets = []
        for d in sorted(Path(self.data_dir).glob("test_data_set_*")):
            ins = [common.load_pb(p)[1] for p in numbered(d, "input")]
            outs = [common.load_pb(p)[1] for p in numbered(d, "output")]
            sets.append((d.name, ins, outs))
        return sets


def numbered(d, prefix):
    files = list(d.glob(f"{prefix}_*.pb"))
    return sorted(files, key=lambda p: int(p.stem.split("_")[-1]))


def find_cases(dirs):
    cases = []
    for arg in dirs:
        d = Path(arg)
        if (d / "model.onnx").exists():
            cases.append(Case(d.name, d / "model.onnx", d))
        elif d.is_dir():
            subs = sorted(s for s in d.iterdir() if (s / "model.onnx").exists())
            if not subs:
                common.fail(f"{d}: no model.onnx in it or its subdirectories")
            cases += [Case(s.name, s / "model.onnx", s) for s in subs]
        else:
            common.fail(f"{d}: not a model directory")
    return cases


def find_public_cases(public_dir):
    d = Path(public_dir)
    if not d.is_dir():
        print(f"skip: public model directory {d} not found", flush=True)
        return []
    return [Case("public/" + f.stem, f, public=True) for f in sorted(d.glob("*.onnx"))]


# -- the steps of one case ----------------------------------------------------------

class Failure(Exception):
    pass


def compile_model(args, case, out_dir, report):
    out_dir.mkdir(parents=True)
    res = common.run([args.compiler, case.model.resolve(), "-o", out_dir, "--emit-harness",
                      "--report", report] + (args.compile_flag or []), COMPILE_TIMEOUT)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, "onnx-to-c"))
    if not list(out_dir.glob("*.c")):
        raise Failure(f"onnx-to-c wrote no .c file into {out_dir}")


def check_identical(a, b):
    fa = sorted(p.name for p in a.iterdir())
    fb = sorted(p.name for p in b.iterdir())
    if fa != fb:
        raise Failure(f"not deterministic: file lists differ: {fa} vs {fb}")
    for name in fa:
        if (a / name).read_bytes() != (b / name).read_bytes():
            raise Failure(f"not deterministic: {name} differs between two compilations")


def read_report(path):
    try:
        rep = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise Failure(f"--report file unreadable: {e}")
    for key in ("arena_bytes", "macs"):
        if not isinstance(rep.get(key), int) or rep[key] < 0:
            raise Failure(f'--report JSON lacks a non-negative integer "{key}"')
    return rep


def build(cc, src_dir, prog):
    srcs = sorted(str(p) for p in src_dir.glob("*.c"))
    # Options in the --cc command come after CFLAGS, so they can override them (-O1).
    cc_words = shlex.split(cc)
    res = common.run(cc_words[:1] + CFLAGS + cc_words[1:] + srcs + ["-lm", "-o", prog], BUILD_TIMEOUT)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, f"[{cc}] build"))


def run_dataset(args, cc, prog, ddir, inputs, refs):
    ddir.mkdir(parents=True, exist_ok=True)
    in_files = [ddir / f"in_{i}.bin" for i in range(len(inputs))]
    out_files = [ddir / f"out_{i}.bin" for i in range(len(refs))]
    for arr, f in zip(inputs, in_files):
        common.write_raw(arr, f)
    for f in out_files:
        if f.exists():
            f.unlink()
    res = common.run([prog] + in_files + out_files, RUN_TIMEOUT)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, f"[{cc}] {ddir.name}: program"))
    worst = 0.0
    for i, (f, ref) in enumerate(zip(out_files, refs)):
        if not f.exists():
            raise Failure(f"[{cc}] {ddir.name}: output {i} not written")
        try:
            out = common.read_raw(f, ref.dtype, ref.shape)
        except ValueError as e:
            raise Failure(f"[{cc}] {ddir.name}: output {i}: {e}")
        ok, msg, max_diff = common.compare(out, ref, args.rtol, args.atol)
        if not ok:
            raise Failure(f"[{cc}] {ddir.name}: output {i}: {msg}")
        worst = max(worst, max_diff)
    return worst


def run_case(args, case):
    """Returns (passed, line)."""
    work = Path(args.work) / case.name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    try:
        gen_a, gen_b = work / "gen_a", work / "gen_b"
        compile_model(args, case, gen_a, work / "report_a.json")
        compile_model(args, case, gen_b, work / "report_b.json")
        check_identical(gen_a, gen_b)
        rep = read_report(work / "report_a.json")
        datasets = case.datasets(work)
        if not datasets:
            raise Failure("no test_data_set_* directory")
        worst = 0.0
        for k, cc in enumerate(args.cc):
            prog = work / f"prog_{k}"
            build(cc, gen_a, prog)
            for name, inputs, refs in datasets:
                worst = max(worst, run_dataset(args, cc, prog, work / f"run_{k}" / name, inputs, refs))
    except Failure as e:
        return False, f"FAIL {case.name}: {e}"
    except Exception as e:  # a bug in the test data or the runner; still one readable line
        return False, f"FAIL {case.name}: {type(e).__name__}: {e}"
    return True, (f"PASS {case.name} (arena {rep['arena_bytes']} B, {len(datasets)} data set(s), "
                  f"max |diff| {worst:.2g})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*", help="model directories (or folders of them)")
    ap.add_argument("--compiler", required=True, help="path of onnx-to-c")
    ap.add_argument("--cc", action="append", help="C compiler command (repeatable; default cc)")
    ap.add_argument("--compile-flag", action="append",
                    help="extra onnx-to-c option, e.g. --compile-flag=--arena-guard (repeatable)")
    ap.add_argument("--work", help="scratch directory (default: a temporary one, kept on failure)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--atol", type=float, default=1e-5)
    ap.add_argument("--public", help="also test every *.onnx in this directory (skipped if absent)")
    ap.add_argument("--ort-dir", help="onnxruntime-node install dir (installed if needed)")
    args = ap.parse_args()
    args.cc = args.cc or ["cc"]
    if not os.access(args.compiler, os.X_OK):
        common.fail(f"compiler {args.compiler} not found or not executable")
    args.compiler = str(Path(args.compiler).resolve())

    cases = find_cases(args.models)
    if args.public:
        common.setup_ort(args.ort_dir)
        cases += find_public_cases(args.public)
    if not cases:
        print("no models to test")

    temp_work = args.work is None
    args.work = str(Path(args.work or tempfile.mkdtemp(prefix="onnx2c_e2e_")).resolve())

    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for ok, line in pool.map(lambda c: run_case(args, c), cases):
            print(line, flush=True)
            passed += ok
            failed += not ok
    if temp_work:
        if failed:
            print(f"work files kept in {args.work}")
        else:
            shutil.rmtree(args.work)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
