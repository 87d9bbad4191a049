#!/usr/bin/python3
"""Bitwise identity across schedules: every operator order onnx-to-c can choose
must compute exactly the bits of the file order (the same kernels on the same
data), and the chosen order's peak must not exceed the file order's or RPO's.
The same with the graph's inputs and outputs in the arena (--io=arena), whose
total RAM must not exceed the caller-buffer build's arena plus its buffers.

    /usr/bin/python3 tests/e2e/run_schedule_identity.py --compiler build/onnx-to-c --work DIR
        [--public DIR] MODEL_DIR...

MODEL_DIRs (or folders of them) hold model.onnx and test_data_set_0/; --public
adds every *.onnx of DIR with seeded random inputs (skipped when DIR is absent).
"""
import argparse
import concurrent.futures
import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

# -Og: these tests compare bits between programs, which no optimization level may
# change (IEEE arithmetic without contraction or fast-math), and -Og builds the
# generated C with gcc in 60-70% of the time of -O1 or -O2 (clang takes it as
# -O1); the -O2 builds are checked against ONNX Runtime by run_models.py.
CFLAGS = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-Og", "-ffp-contract=off"]
# (label, extra compiler options); the first is the reference.
VARIANTS = [("file", ["--schedule=file"]), ("rpo", ["--schedule=rpo"]),
            ("heuristic", ["--schedule=heuristic"]), ("best", []),
            ("best-linear", ["--planner=linear"]), ("no-overlap", ["--overlap=off"]),
            ("io-arena", ["--io=arena"])]


def inputs_for(model, data_dir):
    if data_dir is None:
        _, arrays = common.random_inputs(model, common.model_seed(model.stem))
        return arrays
    return [common.load_pb(p)[1] for p in sorted(Path(data_dir).glob("input_*.pb"),
                                                  key=lambda p: int(p.stem.split("_")[1]))]


def collect_cases(models, public):
    """(name, model.onnx, test data folder or None) for each MODEL_DIR (or folder of
    them) and each *.onnx of `public` (skipped when absent)."""
    cases = []
    for m in models:
        d = Path(m)
        dirs = [d] if (d / "model.onnx").exists() else sorted(p.parent for p in d.glob("*/model.onnx"))
        cases += [(p.name, p / "model.onnx", p / "test_data_set_0") for p in dirs]
    if public:
        if Path(public).is_dir():
            cases += [("public/" + f.stem, f, None) for f in sorted(Path(public).glob("*.onnx"))]
        else:
            print(f"skip: {public} not found")
    return cases


def compile_model(compiler, model, work, label, options):
    """Generate C with a harness into work/label; returns that folder and the report. Kernel
    scratch is off: the peaks compared here are those of the orders alone."""
    out = work / label
    report = work / f"{label}.json"
    subprocess.run([compiler, str(model), "-o", str(out), "--emit-harness", "--report", str(report),
                    "--kernel-scratch-budget=0", *options], check=True, capture_output=True, timeout=600)
    return out, json.loads(report.read_text())


def run_variant(compiler, model, work, label, options, inputs, n_outputs):
    out, report = compile_model(compiler, model, work, label, options)
    return build_and_run(out, work, label, inputs, n_outputs), report


# Programs already built, by their C code without comments (the provenance and
# step comments name the options): identical code is the same program, so an
# order, planner or target variant that generates it is run again, not rebuilt.
# The programs are kept in a folder shared by the suites that import this module
# (schedule, target and recompute identity run as separate ctest processes with
# sibling --work folders, see use_program_cache): the same preprocessed C built by
# the same compiler (its --version) with the same options is the same program,
# so a program another suite built computes the bits this one would build.
_built = {}
_built_lock = threading.Lock()
_cache = {"dir": None, "built": 0, "reused": 0}


def use_program_cache(work_root):
    """Keep the programs in <parent of work_root>/e2e-program-cache, shared with the
    other suites whose --work folders are siblings of work_root."""
    _cache["dir"] = Path(work_root).resolve().parent / "e2e-program-cache"
    _cache["dir"].mkdir(parents=True, exist_ok=True)


def cache_summary():
    return f"{_cache['built']} programs built, {_cache['reused']} reused"


@functools.lru_cache(maxsize=None)
def compiler_id(cc):
    """The compiler's path and --version, so that the cache never mixes compilers."""
    res = subprocess.run([cc, "--version"], check=True, capture_output=True, timeout=60)
    return (os.path.realpath(shutil.which(cc) or cc)).encode() + b"\0" + res.stdout


def code_key(out, cc, flags):
    texts = []
    for p in sorted(out.glob("*.[ch]")):
        # -fpreprocessed -dD -E: comments removed, nothing expanded.
        res = subprocess.run(["gcc", "-fpreprocessed", "-dD", "-E", "-P", "-x", "c", str(p)], check=True,
                             capture_output=True, timeout=300)
        texts.append(p.name.encode() + b"\0" + res.stdout)
    return hashlib.sha256(b"\0".join([compiler_id(cc), *map(str.encode, CFLAGS), b"",
                                       *map(str.encode, flags), b"", *texts])).hexdigest()


# The SSE2 statements only by default: schedules are compared here, the x86-64
# dispatch's AVX2 half against them in run_target_identity.py (and building it
# for every schedule would double this test's time).
def build_and_run(out, work, label, inputs, n_outputs, cc="gcc", flags=("-DONNX_TO_C_NO_DISPATCH",)):
    """Build the generated C in `out` with `cc` and `flags` (unless the same code was built
    already, by this process or, with use_program_cache, another), run it on `inputs`;
    returns the output bytes."""
    key = code_key(out, cc, flags)
    with _built_lock:
        prog = _built.get(key)
    if prog is None and _cache["dir"] is not None and (_cache["dir"] / key).is_file():
        prog = _cache["dir"] / key
    if prog is None:
        final = work / f"{label}.prog" if _cache["dir"] is None else _cache["dir"] / key
        # Built under a name of its own, then renamed: a process that finds `final` finds a
        # whole program, and two that build the same key at once each publish a whole one.
        tmp = final.with_name(f"{final.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            subprocess.run([cc, *CFLAGS, *flags, *sorted(str(p) for p in out.glob("*.c")), "-lm",
                            "-o", str(tmp)], check=True, capture_output=True, timeout=900)
            os.replace(tmp, final)
        finally:
            tmp.unlink(missing_ok=True)
        prog = final
        with _built_lock:
            _cache["built"] += 1
    else:
        with _built_lock:
            _cache["reused"] += 1
    with _built_lock:
        _built[key] = prog
    in_files = []
    for i, arr in enumerate(inputs):
        path = work / f"in_{i}.bin"
        common.write_raw(arr, path)
        in_files.append(str(path))
    out_files = [str(work / f"{label}.out_{i}.bin") for i in range(n_outputs)]
    subprocess.run([str(prog), *in_files, *out_files], check=True, capture_output=True, timeout=300)
    return [Path(f).read_bytes() for f in out_files]


def run_cases(args, cases, check_case, named=()):
    """Runs check_case(args, name, model, data) on every case (args.jobs at a time), printing
    each line; first, every model `named` must be among the cases. Returns the exit status.
    A named public model is skipped, saying so, when the --public folder is absent (a user's
    clone has none): the project's own models are still checked."""
    missing = set(named) - {n for n, _, _ in cases}
    if not (args.public and Path(args.public).is_dir()):
        for name in sorted(n for n in missing if n.startswith("public/")):
            print(f"skip: {name}: its expectations need the public models ({args.public} not found)")
        missing = {n for n in missing if not n.startswith("public/")}
    if missing:
        print(f"FAIL: named models not given: {' '.join(sorted(missing))}")
        return 1
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for ok, line in pool.map(lambda c: check_case(args, *c), cases):
            print(line, flush=True)
            passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed ({cache_summary()})")
    return 1 if failed else 0


def identity_arguments(**lists):
    """Parses the arguments the identity suites share (--compiler, --work, --public,
    --common-options, --jobs, MODEL_DIR...) and, per keyword, one more comma-separated list
    option (must_pay="help" gives --must-pay); the lists come back as Python lists."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--public")
    ap.add_argument("--common-options", default="", help="comma-separated options of every build")
    for key, help_text in lists.items():
        ap.add_argument("--" + key.replace("_", "-"), default="", help=help_text)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    for key in ["common_options", *lists]:
        setattr(args, key, [n for n in getattr(args, key).split(",") if n])
    return args


def prepare_case(work_root, name, model, data):
    """The case's work folder (created), its inputs and its number of outputs."""
    work = Path(work_root) / name.replace("/", "_")
    work.mkdir(parents=True, exist_ok=True)
    return work, inputs_for(model, data), len(common.graph_io(model)[1])


def check_case(args, name, model, data):
    """Returns (passed, line)."""
    try:
        work, inputs, n_outputs = prepare_case(args.work, name, model, data)
        results = {label: run_variant(args.compiler, model, work, label, opts, inputs, n_outputs)
                   for label, opts in VARIANTS}
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, ValueError) as e:
        return False, f"FAIL {name}: {e}"
    ref_bits = results["file"][0]
    problems = [label for label, (bits, _) in results.items() if bits != ref_bits]
    best = results["best"][1]
    for label in ("best", "io-arena"):
        r = results[label][1]
        if r["peak_bytes"] > min(r["baselines"]["file_order_peak_bytes"], r["baselines"]["rpo_peak_bytes"]):
            problems.append(f"{label} peak above a baseline")
    # Inputs and outputs in the arena: the certificate covers them, and the whole RAM is
    # no more than the caller-buffer build's arena plus its input and output buffers.
    io = results["io-arena"][1]
    if not io["io_in_arena"] or io["total_ram_bytes"] != io["arena_bytes"] or io["caller_io_bytes"] != 0:
        problems.append("io-arena report")
    if io["total_ram_bytes"] > best["arena_bytes"] + common.aligned_caller_io(best):
        problems.append("io-arena total RAM above the caller build's")
    orders_differ = len({tuple(r["order"]) for _, r in results.values()})
    status = "PASS" if not problems else "FAIL"
    return not problems, (f"{status} {name}: {orders_differ} distinct orders, peak file "
                          f"{best['baselines']['file_order_peak_bytes']} rpo {best['baselines']['rpo_peak_bytes']} "
                          f"best {best['peak_bytes']}{' certified' if best['certified_optimal'] else ''}"
                          f"{'; differs: ' + ', '.join(problems) if problems else ''}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--public")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    cases = collect_cases(args.models, args.public)
    use_program_cache(args.work)
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for ok, line in pool.map(lambda c: check_case(args, *c), cases):
            print(line, flush=True)
            passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed; {len(_built)} distinct programs for "
          f"{len(cases) * len(VARIANTS)} variants ({cache_summary()})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
