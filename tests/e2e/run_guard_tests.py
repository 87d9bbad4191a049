#!/usr/bin/python3
"""End-to-end test of the arena guard (--arena-guard).

    /usr/bin/python3 tests/e2e/run_guard_tests.py --compiler build/onnx-to-c --work DIR MODEL_DIR...

For each MODEL_DIR/model.onnx: the guarded build runs clean (exit 0); then each arena
buffer's offset macro in the generated C is moved up by one alignment unit, so that its
writer writes bytes the memory model did not declare for it, and the rebuilt program must
stop with the guard's status (4) instead of finishing. A move whose stray bytes all fall in
the writer's own kernel scratch (report `kernel_scratch`) writes bytes declared for that
step, which the guard cannot tell from the kernel's own use; those buffers are moved again
in a build with scratch-free kernels (--kernel-scratch-budget=0). The same holds for the plane
scratch of an overlap contract (an upsampling's output ends where its scratch begins); those
are moved again in a build without contracts (--overlap=off) as well. Prints PASS/FAIL lines
and `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import json
import re
import shutil
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

# -Og: the guard checks every statement's writes whatever the optimization level, and
# gcc builds the generated C at -Og in about 60% of the time of -O2 (the -O2 builds
# run guarded in e2e.models.gcc and e2e.public_models).
CFLAGS = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-Og", "-ffp-contract=off"]
OFFSET_RE = re.compile(r"^#define (off_\w+) \(\(size_t\)(\d+)u\)", re.M)
# The same macro's comment: bytes and steps.
EXTENT_RE = re.compile(r"^#define (off_\w+) \(\(size_t\)(\d+)u\) /\* (\d+) bytes, steps (\d+)\.\.", re.M)
# An overlap contract's plane scratch: offset, bytes and step.
CONTRACT_SCRATCH_RE = re.compile(
    r"^#define contract_scratch_\w+ \(\(size_t\)(\d+)u\) /\* (\d+) bytes, step (\d+):", re.M)


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


def shadowed_by_scratch(text, report, alignment):
    """Offset macros whose stray bytes (one alignment unit past the buffer) all fall in the
    kernel scratch, or the overlap contract's plane scratch, of the buffer's writer: declared
    writes of that step, invisible to the guard. Returns (those macros, whether any of them
    is shadowed by a contract's scratch)."""
    step_of = {sid: i for i, sid in enumerate(report["order"])}
    kernel = [(step_of[k["statement"]], k["offset"], k["offset"] + k["scratch_bytes"])
              for k in report["kernel_scratch"]]
    contract = [(int(step), int(lo), int(lo) + int(size))
                for lo, size, step in CONTRACT_SCRATCH_RE.findall(text)]
    out, by_contract = set(), False
    for name, offset, size, first in EXTENT_RE.findall(text):
        end = int(offset) + int(size)
        def within(scratch):
            return any(step == int(first) and lo <= end and end + alignment <= hi for step, lo, hi in scratch)
        if within(kernel) or within(contract):
            out.add(name)
            by_contract = by_contract or within(contract)
    return out, by_contract


def check_build(args, model_dir, work, options, only):
    """Compiles with the guard, runs clean, then moves each offset macro (those in `only`, if
    given); returns (stray writes caught, macros shadowed by the writer's own scratch, whether
    a contract's plane scratch shadows any of them)."""
    if work.exists():
        shutil.rmtree(work)
    gen = work / "gen"
    gen.mkdir(parents=True)
    res = common.run([args.compiler, model_dir / "model.onnx", "-o", gen, "--emit-harness",
                      "--arena-guard", "--report", work / "report.json"] + options, 300)
    if res.returncode != 0:
        raise RuntimeError(common.describe_failure(res, "onnx-to-c"))
    res = build_and_run(gen, work, "clean")
    if res.returncode != 0:
        raise RuntimeError(common.describe_failure(res, "the guarded program on a correct plan"))
    alignment = int(re.search(r"_ARENA_ALIGNMENT (\d+)u", next(gen.glob("*.h")).read_text()).group(1))
    # The model's sources: NAME.c, and on x86-64 NAME_avx2.c with the same
    # offsets (the statements that run on an AVX2 machine).
    sources = sorted(p for p in gen.glob("*.c") if not p.name.endswith("_harness.c"))
    text = next(p for p in sources if not p.name.endswith("_avx2.c")).read_text()
    macros = OFFSET_RE.findall(text)
    if not macros:
        raise RuntimeError("no arena offset macros in the generated C")
    shadowed, by_contract = shadowed_by_scratch(text, json.loads((work / "report.json").read_text()),
                                                alignment)
    caught = 0
    for name, offset in macros:
        if name in shadowed or (only is not None and name not in only):
            continue
        bad = work / f"bad_{name}"
        shutil.copytree(gen, bad)
        moved = int(offset) + alignment
        for source in sources:
            (bad / source.name).write_text(source.read_text().replace(
                f"#define {name} ((size_t){offset}u)", f"#define {name} ((size_t){moved}u)"))
        res = build_and_run(bad, work, name)
        if res.returncode == 0 or "status 4" not in res.stderr:
            raise RuntimeError(f"moving {name} by {alignment} bytes was not caught "
                               f"(exit {res.returncode}: {res.stderr.strip()[:200]})")
        caught += 1
    return caught, shadowed, by_contract


def check_model(args, model_dir):
    work = Path(args.work) / model_dir.name
    caught, shadowed, by_contract = check_build(args, model_dir, work, [], None)
    if not shadowed:
        return f"clean run, {caught} stray writes caught"
    # The buffers the scratch shadowed, moved in a build with scratch-free kernels
    # (and without contracts, if a contract's scratch shadowed one).
    options = ["--kernel-scratch-budget=0"] + (["--overlap=off"] if by_contract else [])
    again, left, _ = check_build(args, model_dir, work / "scratch_free", options, shadowed)
    if left or again != len(shadowed):
        raise RuntimeError(f"stray writes of {sorted(shadowed)} could not be tried")
    return (f"clean run, {caught} stray writes caught; {again} more with {' '.join(options)} "
            f"(past {len(shadowed)} buffers the writer's own scratch follows)")


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
