#!/usr/bin/env python3
"""Checks every figure the README shows, and the tables of docs/benchmarks.md the compiler can
re-derive, against what they claim.

  * the README has at most --max-lines lines, and every table in it is one checked here (or
    one without measurements: the options and the targets);
  * the memory tables (memory_tables.py), in whichever of the two files they are: every cell
    compiled again (the public models; skipped, saying so, without them);
  * speed against ONNX Runtime: the README's rows are those recorded in docs/benchmarks.md,
    the models are the public ones, and the geometric mean and worst row follow from the rows
    (timings are not re-measured);
  * the MLPerf Tiny table: the published columns are the figures bench/cortex_m_bench.py
    prints (n/a where it has none), ours equal in the README and docs/benchmarks.md; with
    --cortex-m, ours are measured again under QEMU (bench/cortex_m_bench.py --int8, 8-bit
    inputs);
  * conformance: the pass column is the allow-lists' count per folder (every listed test
    must pass in conformance.*), the tests column the test data where present, and each row
    adds up.

Usage: check_readme_tables.py --compiler onnx-to-c --readme README.md
           --benchmarks docs/benchmarks.md --models models/ [--public DIR]
           [--allow-list FILE]... [--onnx-tests ARCHIVE] [--cortex-m --int8-dir DIR]
"""
import argparse
import importlib.util
import json
import math
import sys
import tarfile
import tempfile
from pathlib import Path

import memory_tables
from common import ROOT, run
from doc_tables import decimals, number, table_after, tables

SPEED = "| model | x86-64 | x86-64-sse2 |"
MLPERF = "| model | ours: instructions | ours: est. cycles |"
CONFORMANCE = "| folder | tests | pass | rejected |"
INT8_CORTEX_M = "| model | CPU | requant | instructions |"
# Tables the README may show without a check: they hold no measurements.
DESCRIPTIVE = ["| option | meaning |", "| `--target` | GCC flags |"]
README_NEEDS = [memory_tables.TOTAL_RAM, SPEED, MLPERF, CONFORMANCE]
BENCHMARKS_NEED = [memory_tables.ARENA, memory_tables.TOTAL_RAM, memory_tables.PATCHES, memory_tables.RECOMPUTE,
                   SPEED, MLPERF, CONFORMANCE, INT8_CORTEX_M]
DEBIAN_TESTS = Path("/usr/share/libonnx-testdata/data")


class Check:
    def __init__(self):
        self.failures = []

    def fail(self, doc, what):
        self.failures.append(f"{doc}: {what}")

    def expect(self, doc, what, got, want):
        if got != want:
            self.fail(doc, f"{what}: the check gives {got}, the file says {want}")


def check_tables_present(check, docs):
    for doc, needed in (("README.md", README_NEEDS), ("docs/benchmarks.md", BENCHMARKS_NEED)):
        for header in needed:
            if table_after(docs[doc], header) is None:
                check.fail(doc, f"no table starting with {header!r}")
    known = [memory_tables.ARENA, memory_tables.TOTAL_RAM, memory_tables.PATCHES, memory_tables.RECOMPUTE,
             SPEED, MLPERF, CONFORMANCE, INT8_CORTEX_M, *DESCRIPTIVE]
    for header in tables(docs["README.md"]):
        if not any(header.startswith(k) for k in known):
            check.fail("README.md", f"a table no test checks: {header[:80]!r}")


def check_speed(check, docs, public):
    rows = {doc: table_after(text, SPEED) for doc, text in docs.items()}
    if rows["README.md"] != rows["docs/benchmarks.md"]:
        check.fail("README.md", "the speed table's rows differ from docs/benchmarks.md's")
    body = [r for r in rows["docs/benchmarks.md"] if not r[0].startswith("geometric mean")]
    last = [r for r in rows["docs/benchmarks.md"] if r[0].startswith("geometric mean")]
    if public and public.is_dir():
        check.expect("docs/benchmarks.md", "speed table models", [r[0] for r in body],
                     sorted(m.stem for m in public.glob("*.onnx")))
    if len(last) != 1:
        check.fail("docs/benchmarks.md", "the speed table has no 'geometric mean (worst)' row")
        return
    for col in range(1, len(last[0])):
        shown_mean, shown_worst = last[0][col].rstrip(")").split(" (")
        values = [float(r[col]) for r in body]
        mean = math.exp(sum(map(math.log, values)) / len(values))
        check.expect("docs/benchmarks.md", f"speed geometric mean, column {col}",
                     f"{mean:.{decimals(shown_mean)}f}", shown_mean)
        check.expect("docs/benchmarks.md", f"speed worst, column {col}",
                     f"{max(values):.{decimals(shown_worst)}f}", shown_worst)


def published_figures():
    """bench/cortex_m_bench.py's PUBLISHED: the other engines' MLPerf Tiny cycles per model."""
    spec = importlib.util.spec_from_file_location("cortex_m_bench", ROOT / "bench" / "cortex_m_bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench.PUBLISHED


def check_mlperf(check, docs):
    published = published_figures()
    ours = {}
    for doc, text in docs.items():
        for row in table_after(text, MLPERF) or []:
            model = row[0]
            for cell, cycles in zip(row[3:], published.get(model, [])):
                shown = "n/a" if cell.strip() == "n/a" else round(float(cell.split()[0]) * 1e6)
                check.expect(doc, f"{model} published cycles", "n/a" if cycles is None else round(cycles), shown)
            check.expect(doc, f"{model} published engines", len(row[3:]), len(published.get(model, [])))
            ours.setdefault(model, {})[doc] = (number(row[1]), number(row[2]))
    for model, by_doc in ours.items():
        if len(set(by_doc.values())) != 1:
            check.fail("README.md", f"{model}: our MLPerf figures differ between the files: {by_doc}")
    return ours


def measure_mlperf(check, ours, compiler, int8_dir, work):
    """Runs the bench command of the MLPerf table and compares our two columns."""
    out = Path(work) / "cortex_m_int8.json"
    res = run([sys.executable, str(ROOT / "bench" / "cortex_m_bench.py"), "--compiler", compiler, "--int8",
               "--int8-dir", str(int8_dir), "--work", str(Path(work) / "qemu"), "--json", str(out)], timeout=3600)
    if res.returncode != 0 or not out.exists():
        check.fail("README.md", f"bench/cortex_m_bench.py --int8 failed: {res.stdout[-400:]} {res.stderr[-400:]}")
        return
    measured = {r["model"]: r["stats"] for r in json.loads(out.read_text())}
    for model, by_doc in ours.items():
        s = measured.get(model)
        if s is None:
            check.fail("README.md", f"{model}: not measured")
            continue
        got = (s["run_instructions"], s["run_cycles_m4_estimate"])
        for doc, shown in by_doc.items():
            check.expect(doc, f"{model} instructions and est. cycles on the M4F", got, shown)
    print(f"MLPerf table: {len(measured)} models measured under QEMU")


def allow_list_counts(paths):
    counts = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                folder = line.split("/")[0]
                counts[folder] = counts.get(folder, 0) + 1
    return counts


def test_data_counts(archive):
    """Tests per folder in Debian's libonnx-testdata and in the archive, where present."""
    counts = {}
    if DEBIAN_TESTS.is_dir():
        for folder in DEBIAN_TESTS.iterdir():
            counts[folder.name] = sum(1 for t in folder.iterdir() if t.is_dir())
    if archive and Path(archive).is_file():
        with tarfile.open(archive) as tar:
            for name in tar.getnames():
                parts = name.split("/")
                if len(parts) == 3 and parts[2] == "model.onnx":
                    counts[parts[0]] = counts.get(parts[0], 0) + 1
    return counts


def check_conformance(check, docs, allow_lists, archive):
    passing = allow_list_counts(allow_lists)
    present = test_data_counts(archive)
    for doc, text in docs.items():
        for row in table_after(text, CONFORMANCE) or []:
            folder = row[0].split()[0]
            tests, passed, rejected, wrong, crashed = map(number, row[1:6])
            check.expect(doc, f"conformance {folder}: passing (allow-list)", passing.get(folder), passed)
            check.expect(doc, f"conformance {folder}: tests = the row's sum", passed + rejected + wrong + crashed, tests)
            if folder in present:
                check.expect(doc, f"conformance {folder}: tests in the data", present[folder], tests)
            else:
                print(f"{doc}: conformance {folder}: test count skipped (no test data)")


def check_memory(check, docs, args, work):
    compiler = memory_tables.Compiler(args.compiler, work)
    public = Path(args.public) if args.public else None
    for doc, text in docs.items():
        found = tables(text)
        if public and public.is_dir():
            for header, fn in ((memory_tables.ARENA, memory_tables.check_arena_table),
                               (memory_tables.TOTAL_RAM, memory_tables.check_total_ram_table),
                               (memory_tables.PATCHES, memory_tables.check_patches_table)):
                if any(h.startswith(header) for h in found):
                    print(f"{doc}: {header[:60]}...: {fn(check, doc, text, public, compiler)} rows checked")
        else:
            print(f"{doc}: memory tables of the public models skipped (no public models directory)")
        if any(h.startswith(memory_tables.RECOMPUTE) for h in found):
            n = memory_tables.check_recompute_rows(check, doc, text, args.models, compiler)
            print(f"{doc}: recompute table: {n} test-model rows checked")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--readme", required=True)
    ap.add_argument("--benchmarks", required=True)
    ap.add_argument("--models", required=True)
    ap.add_argument("--public")
    ap.add_argument("--allow-list", action="append", default=[])
    ap.add_argument("--onnx-tests", help="the ONNX v1.17.0 node tests' archive (counted where present)")
    ap.add_argument("--max-lines", type=int, default=300)
    ap.add_argument("--cortex-m", action="store_true", help="only measure the MLPerf table under QEMU")
    ap.add_argument("--int8-dir")
    a = ap.parse_args()
    docs = {"README.md": Path(a.readme).read_text(), "docs/benchmarks.md": Path(a.benchmarks).read_text()}
    check = Check()
    with tempfile.TemporaryDirectory() as work:
        if a.cortex_m:
            ours = check_mlperf(check, docs)
            if a.int8_dir and Path(a.int8_dir).is_dir():
                measure_mlperf(check, ours, a.compiler, a.int8_dir, work)
            else:
                print(f"MLPerf table: measurement skipped ({a.int8_dir} not found)")
        else:
            lines = len(docs["README.md"].splitlines())
            if lines > a.max_lines:
                check.fail("README.md", f"{lines} lines, above {a.max_lines}")
            check_tables_present(check, docs)
            check_memory(check, docs, a, work)
            check_speed(check, docs, Path(a.public) if a.public else None)
            check_mlperf(check, docs)
            check_conformance(check, docs, a.allow_list, a.onnx_tests)
    for f in check.failures:
        print("FAIL:", f)
    if check.failures:
        return 1
    print("PASS: the README's figures and docs/benchmarks.md's tables match what they claim")
    return 0


if __name__ == "__main__":
    sys.exit(main())
