#!/usr/bin/python3
"""Bitwise identity across x86-64 code: the reference is --target=x86-64 built with
-DONNX_TO_C_NO_DISPATCH (SSE2 only, 4-float vectors). These must compute exactly its bits,
built with gcc and with clang:
  * --target=x86-64 as generated, whose run function takes NAME_avx2.c's statements on
    an AVX2 machine (8-float AVX vectors with gcc);
  * --target=x86-64-v3 (AVX2 only).
On the first model it also proves that the dispatch really takes NAME_avx2.c's
statements (with them replaced by no-ops the outputs change), and that NAME.c built
alone fails to link unless -DONNX_TO_C_NO_DISPATCH (no silent loss of AVX2).

    /usr/bin/python3 tests/e2e/run_target_identity.py --compiler build/onnx-to-c --work DIR
        [--public DIR] [--clang CLANG] MODEL_DIR...

Where the machine has no AVX2 the x86-64-v3 programs cannot run: the test says so
and fails unless --allow-no-avx2 is given (a machine without AVX2 cannot check it).
"""
import argparse
import concurrent.futures
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from run_schedule_identity import (build_and_run, cache_summary, collect_cases, compile_model,  # noqa: E402
                                   prepare_case, use_program_cache)

STEP_TABLE_RE = re.compile(r"^(const \w+_step_fn \w+_avx2_steps\[\d+\]) = \{.*?^\};", re.M | re.S)


def no_op_steps(text):
    """NAME_avx2.c with every entry of its step table a function that does nothing."""
    m = STEP_TABLE_RE.search(text)
    if not m:
        raise ValueError("no step table in NAME_avx2.c")
    n = int(re.search(r"\[(\d+)\]", m.group(1)).group(1))
    ctx = re.search(r"struct (\w+_ctx) \{", text).group(1)
    nop = f"static void oc_test_nop_(const struct {ctx} *c) {{ (void)c; }}\n"
    return text[:m.start()] + nop + m.group(1) + " = {" + ", ".join(["oc_test_nop_"] * n) + "};" \
        + text[m.end():]


def has_avx2():
    try:
        return any(line.startswith("flags") and " avx2" in line
                   for line in Path("/proc/cpuinfo").read_text().splitlines())
    except OSError:
        return False


def check_case(args, name, model, data, prove_dispatch=False):
    """Returns (passed, line)."""
    try:
        work, inputs, n_outputs = prepare_case(args.work, name, model, data)
        x86, _ = compile_model(args.compiler, model, work, "x86-64", ["--target=x86-64"])
        avx, _ = compile_model(args.compiler, model, work, "x86-64-v3", ["--target=x86-64-v3"])
        variants = sorted(x86.glob("*_avx2.c"))
        if len(variants) != 1:
            raise ValueError(f"--target=x86-64 wrote {len(variants)} *_avx2.c files, not 1")
        ref = build_and_run(x86, work, "sse-gcc", inputs, n_outputs)  # -DONNX_TO_C_NO_DISPATCH
        got = {"x86-64 gcc": build_and_run(x86, work, "x86-gcc", inputs, n_outputs, flags=()),
               f"x86-64 {args.clang}": build_and_run(x86, work, "x86-clang", inputs, n_outputs,
                                                     args.clang, flags=()),
               "x86-64-v3 gcc": build_and_run(avx, work, "avx-gcc", inputs, n_outputs, flags=()),
               f"x86-64-v3 {args.clang}": build_and_run(avx, work, "avx-clang", inputs, n_outputs,
                                                        args.clang, flags=())}
        if prove_dispatch:
            nop = work / "x86-nop"
            shutil.copytree(x86, nop, dirs_exist_ok=True)
            (nop / variants[0].name).write_text(no_op_steps(variants[0].read_text()))
            if build_and_run(nop, work, "x86-nop", inputs, n_outputs,
                             flags=["-Wno-unused-function"]) == ref:
                raise ValueError("with NAME_avx2.c's statements made no-ops the outputs did not "
                                 "change: the dispatch does not run them")
            alone = work / "x86-alone"
            shutil.copytree(x86, alone, dirs_exist_ok=True)
            (alone / variants[0].name).unlink()
            try:
                build_and_run(alone, work, "x86-alone", inputs, n_outputs, flags=())
                raise ValueError("NAME.c without NAME_avx2.c linked: the AVX2 table is not referenced")
            except subprocess.CalledProcessError:
                pass
            if build_and_run(alone, work, "x86-alone", inputs, n_outputs) != ref:
                raise ValueError("NAME.c alone with -DONNX_TO_C_NO_DISPATCH computes other bits")
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, ValueError) as e:
        detail = getattr(e, "stderr", b"") or b""
        return False, f"FAIL {name}: {e} {detail.decode(errors='replace')[:2000]}"
    differ = [cc for cc, bits in got.items() if bits != ref]
    return not differ, (f"{'FAIL' if differ else 'PASS'} {name}"
                        f"{': bits differ from the SSE2 build with ' + ', '.join(differ) if differ else ''}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--public")
    ap.add_argument("--clang", default="clang-14")
    ap.add_argument("--allow-no-avx2", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    if not has_avx2():
        print("this machine has no AVX2: x86-64-v3 code cannot run here")
        return 0 if args.allow_no_avx2 else 1
    cases = collect_cases(args.models, args.public)
    use_program_cache(args.work)
    passed = failed = 0
    # The first model also proves the dispatch; the others run two at a time.
    results = [check_case(args, *cases[0], prove_dispatch=True)] if cases else []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results += pool.map(lambda c: check_case(args, *c), cases[1:])
    for ok, line in results:
        print(line, flush=True)
        passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed ({cache_summary()})")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
