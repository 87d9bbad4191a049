#!/usr/bin/python3
"""Conformance: the ONNX backend test suite (Debian's libonnx-testdata) through onnx-to-c.

    /usr/bin/python3 tests/conformance/run_conformance.py --compiler build/onnx-to-c
        [--data DIR] [--folder node ...] [--jobs 2] [--work DIR] [--results FILE.json]
        [--allow-list FILE] [--write-allow-list FILE] [--write-docs FILE] [--no-run]
        [--filter REGEX] [TEST ...]

Each test directory (model.onnx + test_data_set_*/input_*.pb, output_*.pb) is compiled with
`onnx-to-c --emit-harness`, built with CC -std=c99 -pedantic -Wall -Wextra -Werror -Og
-ffp-contract=off (no optimization level changes the bits of IEEE arithmetic without
contraction or fast-math; -Og builds the generated C about 15% faster than -O2, whose builds
e2e.models.* check), and run on every data set; outputs must satisfy
|out - ref| <= atol + rtol * |ref| (rtol 1e-3, atol 1e-6; NaN == NaN), integers and bools exactly.
A test is named FOLDER/TEST (e.g. node/test_abs) and ends as one of:
  pass, wrong (numbers differ), crash (compiler or program killed by a signal, or another
  unexpected exit), build-fail (the C does not compile), rejected (the compiler exits 1 with
  its `error:` line), timeout, error (the test data cannot be read).

--allow-list FILE runs only the tests listed there and exits 1 unless all of them pass (CI).
--write-allow-list FILE writes the passing tests, grouped under `# Op` lines.
--write-docs FILE writes the supported-ops table (Markdown) from the allow-lists; with
--no-run it only does that. With --archive, the tests are looked up in the archive's tests
first, then in --data: the table of docs/supported-ops.md comes from both allow-lists,
    --no-run --archive ../shared/onnx-tests/node-1.17.0.tar.xz --work /tmp/conf
    --allow-list tests/conformance/allow_list.txt --allow-list tests/conformance/allow_list_1_17.txt
    --write-docs docs/supported-ops.md Exits 77 (ctest's skip code) when the test data is not installed.
--archive FILE.tar.xz reads the tests from that archive (extracted once under --work/data),
for example the ONNX v1.17.0 node tests (../shared/onnx-tests/node-1.17.0.tar.xz); skipped
(77) when the archive is missing.
Tests listed in ort_reference.txt are compared with ONNX Runtime's outputs instead of the
archived ones, where the ONNX reference implementation that wrote those disagrees with ONNX
Runtime (each line gives the evidence); they fail when ONNX Runtime is not installed.
--cc "arm-none-eabi-gcc -mcpu=..." --compile-only checks that the generated C compiles for a
target; --freeze-small-inputs (a developer check) turns shape-like graph inputs into
initializers so that the constant-argument paths of rejected tests run too.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "e2e"))
sys.path.insert(0, str(HERE))
import common  # noqa: E402
import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402
import supported_ops  # noqa: E402
import tarfile  # noqa: E402

DEFAULT_DATA = "/usr/share/libonnx-testdata/data"
DEFAULT_FOLDERS = ["node", "pytorch-converted", "pytorch-operator", "simple"]
CFLAGS = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-Og", "-ffp-contract=off"]
NO_DISPATCH = "-DONNX_TO_C_NO_DISPATCH"
STATUSES = ["pass", "rejected", "wrong", "crash", "build-fail", "timeout", "error"]
SKIP = 77


class Outcome(Exception):
    """Ends a test early with a status other than pass."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status, self.message = status, message


def first_error_line(res):
    lines = [l.strip() for l in (res.stderr + "\n" + res.stdout).splitlines() if l.strip()]
    return next((l for l in lines if l.startswith("error:")), lines[0] if lines else "(no output)")


def numbered(d, prefix):
    return sorted(d.glob(f"{prefix}_*.pb"), key=lambda p: int(p.stem.split("_")[-1]))


def load_datasets(test_dir, input_names):
    sets = []
    for d in sorted(test_dir.glob("test_data_set_*")):
        ins = [common.load_pb(p) for p in numbered(d, "input")]
        outs = [common.load_pb(p)[1] for p in numbered(d, "output")]
        if len(ins) != len(input_names):
            raise Outcome("error", f"{d.name} has {len(ins)} inputs, the model {len(input_names)}")
        by_name = {name: arr for name, arr in ins}
        if set(by_name) == set(input_names):
            arrays = [by_name[n] for n in input_names]
        else:
            arrays = [arr for _, arr in ins]
        sets.append((d.name, arrays, outs))
    if not sets:
        raise Outcome("error", "no test_data_set_* directory")
    return sets


def compile_test(args, model, out_dir):
    res = common.run([args.compiler, model, "-o", out_dir, "--emit-harness", "--name", "model"],
                     args.compile_timeout)
    if res.returncode is None:
        raise Outcome("timeout", f"onnx-to-c timed out after {args.compile_timeout} s")
    if res.returncode < 0:
        raise Outcome("crash", f"onnx-to-c killed by signal {-res.returncode}: "
                               f"{first_error_line(res)[:300]}")
    if res.returncode == 1:
        raise Outcome("rejected", first_error_line(res)[:400])
    if res.returncode != 0:
        raise Outcome("crash", f"onnx-to-c exit {res.returncode}: {first_error_line(res)[:300]}")


def build(args, out_dir, prog):
    srcs = sorted(str(p) for p in out_dir.glob("*.c"))
    if NO_DISPATCH in shlex.split(args.cc):
        # NAME_avx2.c is empty then, and may be left out (README); e2e.models.clang-14 and
        # e2e.target_identity build it with -DONNX_TO_C_NO_DISPATCH, so it is not compiled
        # here for every test (a compiler and an assembler run less per test).
        srcs = [s for s in srcs if not s.endswith("_avx2.c")]
    if args.compile_only:  # the model only (cross compilers have no host harness)
        srcs = [s for s in srcs if not s.endswith("_harness.c")]
        cmd = shlex.split(args.cc) + CFLAGS + ["-c"] + srcs + ["-o", str(prog) + ".o"]
    else:
        cmd = shlex.split(args.cc) + CFLAGS + srcs + ["-lm", "-o", prog]
    res = common.run(cmd, args.build_timeout)
    if res.returncode is None:
        raise Outcome("timeout", f"{args.cc} timed out after {args.build_timeout} s")
    if res.returncode != 0:
        raise Outcome("build-fail", common.describe_failure(res, args.cc))


def run_dataset(args, prog, ddir, name, inputs, refs):
    ddir.mkdir(parents=True, exist_ok=True)
    in_files = [ddir / f"in_{i}.bin" for i in range(len(inputs))]
    out_files = [ddir / f"out_{i}.bin" for i in range(len(refs))]
    for arr, f in zip(inputs, in_files):
        common.write_raw(arr, f)
    res = common.run([prog] + in_files + out_files, args.run_timeout)
    if res.returncode is None:
        raise Outcome("timeout", f"{name}: the program timed out after {args.run_timeout} s")
    if res.returncode != 0:
        status = "crash"
        how = f"signal {-res.returncode}" if res.returncode < 0 else f"exit {res.returncode}"
        raise Outcome(status, f"{name}: the program failed ({how}): {first_error_line(res)[:200]}")
    for i, (f, ref) in enumerate(zip(out_files, refs)):
        try:
            out = common.read_raw(f, ref.dtype, ref.shape)
        except (ValueError, OSError) as e:
            raise Outcome("wrong", f"{name}: output {i}: {e}")
        ok, msg, _ = common.compare(out, ref, args.rtol, args.atol)
        if not ok:
            raise Outcome("wrong", f"{name}: output {i}: {msg}")


def ort_reference_tests():
    """Test name (without folder) -> why its archived outputs are not the reference."""
    tests = {}
    for line in (HERE / "ort_reference.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, why = line.split(":", 1)
            tests[name.strip()] = why.strip()
    return tests


def with_ort_references(model, datasets, work):
    """The data sets with ONNX Runtime's outputs as the references."""
    out = []
    for name, inputs, _ in datasets:
        try:
            refs = common.ort_reference(str(model), inputs, work / f"ort_{name}")
        except (RuntimeError, OSError) as e:
            raise Outcome("error", f"{name}: this test compares with ONNX Runtime, which failed: {e}")
        out.append((name, inputs, refs))
    return out


def freeze_small_inputs(model, datasets, work):
    """A developer check of the constant-input paths: graph inputs that look like shape
    arguments (integers, or at most 8 elements in at most 1 dim) and hold the same values
    in every data set become initializers. Returns the new model file and data sets."""
    m = onnx.load(str(model), load_external_data=False)
    real = [vi for vi in m.graph.input if vi.name not in {t.name for t in m.graph.initializer}]
    keep, frozen = [], []
    for i, vi in enumerate(real):
        values = [d[1][i] for d in datasets]
        small = values[0].dtype.kind in "iub" or (values[0].ndim <= 1 and values[0].size <= 8)
        if small and all(v.shape == values[0].shape and np.array_equal(v, values[0]) for v in values):
            frozen.append(i)
            m.graph.initializer.append(numpy_helper.from_array(values[0], vi.name))
        else:
            keep.append(i)
    if not frozen:
        return model, datasets
    path = work / "frozen.onnx"
    onnx.save(m, str(path))
    return path, [(n, [ins[i] for i in keep], outs) for n, ins, outs in datasets]


def run_test(args, test_id):
    """Returns a result dict for one test (never raises)."""
    t0 = time.perf_counter()
    test_dir = find_test(args, test_id)
    work = Path(args.work) / test_id
    result = {"name": test_id, "status": "pass", "message": ""}
    try:
        if work.exists():
            shutil.rmtree(work)
        out_dir = work / "gen"
        out_dir.mkdir(parents=True)
        model, datasets = test_dir / "model.onnx", None
        if args.freeze_small_inputs:
            try:
                ins, _ = common.graph_io(model)
                model, datasets = freeze_small_inputs(
                    model, load_datasets(test_dir, [n for n, _, _ in ins]), work)
            except Exception:  # data the freezing cannot read: test the model as it is
                pass
        compile_test(args, model, out_dir)
        build(args, out_dir, work / "prog")
        if args.compile_only:
            return finish(args, result, work, t0)
        if datasets is None:
            try:
                ins, _ = common.graph_io(model)
                datasets = load_datasets(test_dir, [n for n, _, _ in ins])
            except Outcome:
                raise
            except Exception as e:  # unreadable or non-tensor test data
                raise Outcome("error", f"test data: {type(e).__name__}: {e}")
        why = args.ort_reference.get(test_id.split("/", 1)[1])
        if why:
            datasets = with_ort_references(model, datasets, work)
            result["message"] = f"compared with ONNX Runtime: {why}"
        for name, inputs, refs in datasets:
            run_dataset(args, work / "prog", work / name, name, inputs, refs)
    except Outcome as o:
        result["status"], result["message"] = o.status, o.message
    except Exception as e:  # a runner bug: keep going, report it
        result["status"], result["message"] = "error", f"{type(e).__name__}: {e}"
    return finish(args, result, work, t0)


def finish(args, result, work, t0):
    result["seconds"] = round(time.perf_counter() - t0, 2)
    if not args.keep and result["status"] == "pass":
        shutil.rmtree(work, ignore_errors=True)
    return result


def find_test(args, test_id):
    """The directory of FOLDER/TEST in the first data root that has it (else in the first)."""
    for root in args.roots:
        if (Path(root) / test_id / "model.onnx").exists():
            return Path(root) / test_id
    return Path(args.roots[0]) / test_id


def discover(args):
    tests = []
    for folder in args.folder:
        d = find_test(args, folder)
        if not d.is_dir():
            continue
        tests += [f"{folder}/{s.name}" for s in sorted(d.iterdir()) if (s / "model.onnx").exists()]
    return tests


def read_allow_list(path):
    names = []
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            names.append(line)
    return names


def reason_key(message):
    """A rejection message without node and tensor names, so similar ones group together."""
    m = re.sub(r"^error:\s*", "", message)
    m = re.sub(r"node '[^']*' ", "", m)
    m = re.sub(r"'[^']*'", "'…'", m)
    m = re.sub(r"\[[^\]]*\]", "[…]", m)
    return m[:160]


def print_summary(results, folders):
    by_folder = defaultdict(list)
    for r in results:
        by_folder[r["name"].split("/", 1)[0]].append(r)
    cols = ["total"] + STATUSES
    print("\n" + f"{'folder':<20}" + "".join(f"{c:>11}" for c in cols))
    for folder in folders + sorted(set(by_folder) - set(folders)):
        rs = by_folder.get(folder)
        if not rs:
            continue
        counts = Counter(r["status"] for r in rs)
        print(f"{folder:<20}{len(rs):>11}" + "".join(f"{counts.get(s, 0):>11}" for s in STATUSES))
    for folder in folders:
        rs = by_folder.get(folder, [])
        rejected = Counter(reason_key(r["message"]) for r in rs if r["status"] == "rejected")
        if rejected:
            print(f"\n{folder}: rejected, by reason")
            for reason, n in sorted(rejected.items(), key=lambda kv: (-kv[1], kv[0])):
                print(f"  {n:>4}  {reason}")
        for status in STATUSES[2:]:
            bad = [r for r in rs if r["status"] == status]
            if bad:
                print(f"\n{folder}: {status}")
                for r in bad:
                    print(f"  {r['name']}: {r['message'][:300]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tests", nargs="*", help="tests to run, as FOLDER/TEST (default: all)")
    ap.add_argument("--compiler", default=str(HERE.parents[1] / "build" / "onnx-to-c"))
    ap.add_argument("--data", default=DEFAULT_DATA, help="the test data root")
    ap.add_argument("--archive", help="read the tests from this .tar.xz (extracted under --work/data)")
    ap.add_argument("--folder", action="append", help="folders to run (default: %s)" %
                    ", ".join(DEFAULT_FOLDERS))
    ap.add_argument("--filter", help="only tests whose FOLDER/TEST name matches this regex")
    ap.add_argument("--cc", default="gcc", help="C compiler command (default gcc)")
    ap.add_argument("--compile-only", action="store_true",
                    help="only compile the model's C (-c), e.g. with a cross compiler")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", help="scratch directory (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep the files of passing tests too")
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--atol", type=float, default=1e-6)
    ap.add_argument("--compile-timeout", type=int, default=120)
    ap.add_argument("--build-timeout", type=int, default=300)
    ap.add_argument("--run-timeout", type=int, default=120)
    ap.add_argument("--results", help="write the results (JSON) here")
    ap.add_argument("--allow-list", action="append",
                    help="run only these tests; fail unless all pass (may be repeated)")
    ap.add_argument("--write-allow-list", help="write the passing tests here, grouped per op")
    ap.add_argument("--write-docs", help="write the supported-ops table (Markdown) here")
    ap.add_argument("--no-run", action="store_true", help="only --write-docs from --allow-list")
    ap.add_argument("--freeze-small-inputs", action="store_true",
                    help="developer check: turn shape-like graph inputs into initializers")
    args = ap.parse_args()
    args.folder = args.folder or DEFAULT_FOLDERS
    args.ort_reference = ort_reference_tests()

    if args.archive:
        if not Path(args.archive).is_file():
            print(f"skip: the test archive {args.archive} is not there")
            sys.exit(SKIP)
        if not args.work:
            common.fail("--archive needs --work")
        extracted = Path(args.work).resolve() / "data"
        stamp = extracted / ".extracted"
        if not stamp.exists():
            shutil.rmtree(extracted, ignore_errors=True)
            with tarfile.open(args.archive, "r:xz") as tar:
                tar.extractall(extracted)
            stamp.write_text(Path(args.archive).name + "\n")
        args.roots = [str(extracted)] + ([args.data] if Path(args.data).is_dir() else [])
    else:
        args.roots = [args.data]

    if not Path(args.roots[0]).is_dir():
        print(f"skip: the ONNX test data ({args.data}) is not installed "
              "(Debian package libonnx-testdata; scripts/setup.sh installs it)")
        sys.exit(SKIP)

    if args.no_run:
        if not (args.allow_list and args.write_docs):
            common.fail("--no-run needs --allow-list and --write-docs")
        supported_ops.write_docs(args.roots, args.allow_list, args.write_docs)
        return

    if not os.access(args.compiler, os.X_OK):
        common.fail(f"compiler {args.compiler} not found or not executable")
    args.compiler = str(Path(args.compiler).resolve())

    if args.allow_list:
        tests = [t for path in args.allow_list for t in read_allow_list(path)]
    else:
        tests = args.tests or discover(args)
    if args.filter:
        tests = [t for t in tests if re.search(args.filter, t)]
    missing = [t for t in tests if not (find_test(args, t) / "model.onnx").exists()]
    if missing:
        common.fail(f"no such test: {', '.join(missing[:5])}")

    temp_work = args.work is None
    args.work = str(Path(args.work or tempfile.mkdtemp(prefix="onnx2c_conf_")).resolve())
    t0 = time.perf_counter()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for r in pool.map(lambda t: run_test(args, t), tests):
            results.append(r)
            if r["status"] != "pass" and r["status"] != "rejected":
                print(f"{r['status'].upper()} {r['name']}: {r['message'][:300]}", flush=True)
    elapsed = time.perf_counter() - t0
    if temp_work and not args.keep:
        shutil.rmtree(args.work, ignore_errors=True)

    folders = list(dict.fromkeys(t.split("/", 1)[0] for t in tests))
    print_summary(results, folders)
    passed = sum(r["status"] == "pass" for r in results)
    print(f"\n{passed} of {len(results)} passed in {elapsed:.0f} s")

    if args.results:
        summary = {}
        for folder in folders:
            c = Counter(r["status"] for r in results if r["name"].startswith(folder + "/"))
            summary[folder] = {s: c.get(s, 0) for s in STATUSES}
        Path(args.results).write_text(json.dumps(
            {"summary": summary, "tests": sorted(results, key=lambda r: r["name"])}, indent=1) + "\n")
    if args.write_allow_list:
        supported_ops.write_allow_list(args.roots, [r["name"] for r in results if r["status"] == "pass"],
                                       args.write_allow_list,
                                       Path(args.archive).name if args.archive else "libonnx-testdata")
    if args.write_docs:
        supported_ops.write_docs(args.roots, [args.write_allow_list] if args.write_allow_list
                                 else args.allow_list, args.write_docs)
    if args.allow_list and passed != len(results):
        print(f"error: {len(results) - passed} test(s) on the allow-list did not pass", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
