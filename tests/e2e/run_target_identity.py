#!/usr/bin/python3
"""Bitwise identity across x86-64 targets: the code generated for --target=x86-64-v3
(8-float AVX vectors) must compute exactly the bits of --target=x86-64 (4-float SSE
vectors), built with gcc and with clang.

    /usr/bin/python3 tests/e2e/run_target_identity.py --compiler build/onnx-to-c --work DIR
        [--public DIR] [--clang CLANG] MODEL_DIR...

Where the machine has no AVX2 the x86-64-v3 programs cannot run: the test says so
and fails unless --allow-no-avx2 is given (a machine without AVX2 cannot check it).
"""
import argparse
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from run_schedule_identity import build_and_run, collect_cases, compile_model, inputs_for  # noqa: E402


def has_avx2():
    try:
        return any(line.startswith("flags") and " avx2" in line
                   for line in Path("/proc/cpuinfo").read_text().splitlines())
    except OSError:
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--public")
    ap.add_argument("--clang", default="clang-14")
    ap.add_argument("--allow-no-avx2", action="store_true")
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    if not has_avx2():
        print("this machine has no AVX2: x86-64-v3 code cannot run here")
        return 0 if args.allow_no_avx2 else 1
    passed = failed = 0
    for name, model, data in collect_cases(args.models, args.public):
        work = Path(args.work) / name.replace("/", "_")
        work.mkdir(parents=True, exist_ok=True)
        try:
            inputs = inputs_for(model, data)
            n_outputs = len(common.graph_io(model)[1])
            sse, _ = compile_model(args.compiler, model, work, "x86-64", ["--target=x86-64"])
            avx, _ = compile_model(args.compiler, model, work, "x86-64-v3", ["--target=x86-64-v3"])
            ref = build_and_run(sse, work, "sse-gcc", inputs, n_outputs)
            got = {"gcc": build_and_run(avx, work, "avx-gcc", inputs, n_outputs),
                   args.clang: build_and_run(avx, work, "avx-clang", inputs, n_outputs, args.clang)}
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, ValueError) as e:
            detail = getattr(e, "stderr", b"") or b""
            print(f"FAIL {name}: {e} {detail.decode(errors='replace')[:2000]}")
            failed += 1
            continue
        differ = [cc for cc, bits in got.items() if bits != ref]
        print(f"{'FAIL' if differ else 'PASS'} {name}"
              f"{': x86-64-v3 bits differ with ' + ', '.join(differ) if differ else ''}")
        passed, failed = passed + (not differ), failed + bool(differ)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
