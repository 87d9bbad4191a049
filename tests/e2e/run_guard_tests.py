#!/usr/bin/python3
"""End-to-end test of the arena guard (--arena-guard).

    /usr/bin/python3 tests/e2e/run_guard_tests.py --compiler build/onnx-to-c --work DIR MODEL_DIR...

For each MODEL_DIR/model.onnx: the guarded build runs clean (exit 0); then each arena
buffer's offset macro in the generated C is moved up by one alignment unit, so that its
writer writes bytes the memory model did not declare for it, and the rebuilt program must
stop with the guard's status (4) instead of finishing. Prints PASS/FAIL lines and
`N passed, M failed`; exits 1 on any failure.
"""
import argparse
import re
import shutil
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

CFLAGS = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O2", "-ffp-contract=off"]
OFFSET_RE = re.compile(r"^#define (off_\w+) \(\(size_t\)(\d+)u\)", re.M)


def build_and_run(src_dir, work, tag):
    prog = work / f"prog_{tag}"
    res = common.run(["gcc"] + CFLAGS + sorted(str(p) for p in src_dir.glob("*.c")) +
                     ["-lm", "-o", prog], 300)
    if res.returncode != 0:
        raise RuntimeError(common.describe_failure(res, f"{tag}: build"))
    header = next(src_dir.glob("*.h")).read_text()
    ins = [int(n) for n in re.findall(r"_INPUT_\d+_BYTES (\d+)u", header)]
    outs = len(re.findall(r"_OUTPUT_\d+_BYTES", header))
    args = []
    for i, size in enumerate(ins):
        f = work / f"in_{i}.bin"
        f.write_bytes(bytes((7 * k + 3) % 61 for k in range(size)))  # small, finite floats
        args.append(f)
    args += [work / f"out_{i}.bin" for i in range(outs)]
    return common.run([prog] + args, 120)


def check_model(args, model_dir):
    work = Path(args.work) / model_dir.name
    if work.exists():
        shutil.rmtree(work)
    gen = work / "gen"
    gen.mkdir(parents=True)
    res = common.run([args.compiler, model_dir / "model.onnx", "-o", gen, "--emit-harness",
                      "--arena-guard", "--report", work / "report.json"], 300)
    if res.returncode != 0:
        raise RuntimeError(common.describe_failure(res, "onnx-to-c"))
    res = build_and_run(gen, work, "clean")
    if res.returncode != 0:
        raise RuntimeError(common.describe_failure(res, "the guarded program on a correct plan"))
    alignment = int(re.search(r"_ARENA_ALIGNMENT (\d+)u", next(gen.glob("*.h")).read_text()).group(1))
    source = next(p for p in gen.glob("*.c") if not p.name.endswith("_harness.c"))
    text = source.read_text()
    macros = OFFSET_RE.findall(text)
    if not macros:
        raise RuntimeError("no arena offset macros in the generated C")
    caught = 0
    for name, offset in macros:
        bad = work / f"bad_{name}"
        shutil.copytree(gen, bad)
        moved = int(offset) + alignment
        (bad / source.name).write_text(text.replace(f"#define {name} ((size_t){offset}u)",
                                                    f"#define {name} ((size_t){moved}u)"))
        res = build_and_run(bad, work, name)
        if res.returncode == 0 or "status 4" not in res.stderr:
            raise RuntimeError(f"moving {name} by {alignment} bytes was not caught "
                               f"(exit {res.returncode}: {res.stderr.strip()[:200]})")
        caught += 1
    return f"clean run, {caught} stray writes caught"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    passed = failed = 0
    for m in args.models:
        model_dir = Path(m)
        try:
            print(f"PASS {model_dir.name}: {check_model(args, model_dir)}")
            passed += 1
        except Exception as e:  # one readable line per model
            print(f"FAIL {model_dir.name}: {e}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
