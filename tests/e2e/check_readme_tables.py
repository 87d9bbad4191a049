#!/usr/bin/env python3
"""Checks the README's memory tables against the compiler, cell by cell.

  * "How much RAM, and is it the least?": for each public model, the
    TFLite-style arena, the arena without overlap, the arena, the peak, the
    lower bound and the certificate, compiled as the table says
    (--kernel-scratch-budget=0), and the mean ratios below the table; with the
    default options (kernel scratch in free bytes only), the arena equals the
    modeled peak where the table says so, and the certificate column still
    holds on every model;
  * "Total RAM": for each public model, the TFLite-style arena with the inputs
    and outputs in it, our arena plus the caller's buffers (default options,
    --io=caller), our arena holding the inputs and outputs (--io=arena), its
    lower bound and certificate, and the mean ratios below the table;
  * "Patches": for each public model, total RAM with --io=arena without
    patches, with --patches=auto and with it at a 15% MAC budget, the grid and
    extra MACs of each, and the mean ratios below the table;
  * the recompute table's rows for the project's test models (1%, cap 1):
    arena without and with recompute, and the exact search's optimum.

Usage: check_readme_tables.py --compiler onnx-to-c --readme README.md
           --models models/ [--public DIR]
A missing public-model directory skips that table (and says so).
"""
import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

from common import run


def table_after(text, header_start):
    """The rows (lists of cells) of the Markdown table whose header line starts with `header_start`."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(header_start):
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split("|")])
            return rows
    raise SystemExit(f"FAIL: no table starting with {header_start!r} in the README")


def number(cell):
    m = re.match(r"[\d,]+", cell)
    if not m:
        raise SystemExit(f"FAIL: not a byte count: {cell!r}")
    return int(m.group(0).replace(",", ""))


def compile_report(compiler, model, extra, work):
    out = Path(work) / (model.parent.name + "_" + model.stem)
    res = run([compiler, str(model), "-o", str(out), "--report", str(out / "report.json")] + extra,
              timeout=600)
    if res.returncode != 0:
        raise SystemExit(f"FAIL: {model} {' '.join(extra)}: exit {res.returncode}: {res.stderr[-400:]}")
    return json.loads((out / "report.json").read_text())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--readme", required=True)
    ap.add_argument("--models", required=True)
    ap.add_argument("--public")
    a = ap.parse_args()
    text = Path(a.readme).read_text()
    failures = []

    def expect(what, got, want):
        if got != want:
            failures.append(f"{what}: the compiler gives {got}, the README says {want}")

    with tempfile.TemporaryDirectory() as work:
        public = Path(a.public) if a.public else None
        if public and public.is_dir():
            rows = table_after(text, "| model | TFLite-style arena | our arena without overlap |")
            ratios, ratios_no_overlap = [], []
            for cells in rows:
                name = cells[0]
                model = public / f"{name}.onnx"
                r = compile_report(a.compiler, model, ["--kernel-scratch-budget=0"], work)
                expect(f"{name} TFLite-style arena", r["tflite_style_arena_bytes"], number(cells[1]))
                expect(f"{name} arena without overlap", r["no_overlap_arena_bytes"], number(cells[2]))
                expect(f"{name} arena", r["arena_bytes"], number(cells[3]))
                expect(f"{name} peak", r["peak_bytes"], number(cells[4]))
                expect(f"{name} lower bound", r["lower_bound_bytes"], number(cells[5]))
                certified = cells[6]
                expect(f"{name} certified", r["certified_optimal"], certified.startswith("yes"))
                if "exhaustive search" in certified:
                    expect(f"{name} proven optimal by the exhaustive search", r["proven_optimal"], True)
                ratios.append(r["arena_bytes"] / r["tflite_style_arena_bytes"])
                ratios_no_overlap.append(r["no_overlap_arena_bytes"] / r["tflite_style_arena_bytes"])
                d = compile_report(a.compiler, model, [], work)
                # Where the table shows the arena above the peak (concat buffers in parts,
                # whose fixed offsets the packing may not fit into the peak), it says so.
                if number(cells[3]) == number(cells[4]):
                    expect(f"{name} (default options): arena equals the modeled peak", d["arena_bytes"],
                           d["peak_bytes"])
                expect(f"{name} (default options): certified", d["certified_optimal"],
                       certified.startswith("yes"))
                expect(f"{name} (default options): proven optimal", d["proven_optimal"], True)
            m = re.search(r"Mean ratio to the TFLite-style arena: ([\d.]+) \(([\d.]+) without overlap\)", text)
            if not m:
                failures.append("no 'Mean ratio to the TFLite-style arena' line")
            else:
                mean = sum(ratios) / len(ratios)
                mean_no = sum(ratios_no_overlap) / len(ratios_no_overlap)
                expect("mean ratio", f"{mean:.{len(m.group(1).split('.')[1])}f}", m.group(1))
                expect("mean ratio without overlap", f"{mean_no:.{len(m.group(2).split('.')[1])}f}",
                       m.group(2))
            print(f"public-model table: {len(rows)} rows checked")
            rows = table_after(text, "| model | TFLite-style arena with inputs and outputs |")
            caller_ratios, arena_ratios = [], []
            for cells in rows:
                name = cells[0]
                model = public / f"{name}.onnx"
                c = compile_report(a.compiler, model, ["--io=caller"], work)
                r = compile_report(a.compiler, model, ["--io=arena"], work)
                tfl = r["tflite_style_io_arena_bytes"]
                expect(f"{name} TFLite-style arena with inputs and outputs", tfl, number(cells[1]))
                expect(f"{name} arena + caller buffers", c["total_ram_bytes"], number(cells[2]))
                expect(f"{name} arena holding them", r["total_ram_bytes"], number(cells[3]))
                expect(f"{name} (--io=arena) lower bound", r["lower_bound_bytes"], number(cells[4]))
                expect(f"{name} (--io=arena) certified", r["certified_optimal"], cells[5].startswith("yes"))
                if "exhaustive search" in cells[5]:
                    expect(f"{name} (--io=arena) proven optimal", r["proven_optimal"], True)
                # The arena may miss the modeled peak (fixed offsets of concat
                # parts or contract chains pack imperfectly): the row says so.
                expect(f"{name} (--io=arena) arena above the modeled peak",
                       r["arena_bytes"] != r["peak_bytes"], "above the peak" in cells[5])
                caller_ratios.append(c["total_ram_bytes"] / tfl)
                arena_ratios.append(r["total_ram_bytes"] / tfl)
            m = re.search(r"Mean total RAM against that arena: ([\d.]+) with the inputs and outputs\s+in\s+"
                          r"our\s+arena, ([\d.]+) with\s+caller buffers", text)
            if not m:
                failures.append("no 'Mean total RAM against that arena' line")
            else:
                expect("mean total RAM ratio (--io=arena)",
                       f"{sum(arena_ratios) / len(arena_ratios):.{len(m.group(1).split('.')[1])}f}", m.group(1))
                expect("mean total RAM ratio (--io=caller)",
                       f"{sum(caller_ratios) / len(caller_ratios):.{len(m.group(2).split('.')[1])}f}", m.group(2))
            print(f"total-RAM table: {len(rows)} rows checked")
            rows = table_after(text, "| model | TFLite-style arena with inputs and outputs | without patches |")
            means = [[], [], []]
            for cells in rows:
                name = cells[0]
                model = public / f"{name}.onnx"
                off = compile_report(a.compiler, model, ["--io=arena"], work)
                tfl = off["tflite_style_io_arena_bytes"]
                expect(f"{name} TFLite-style arena with inputs and outputs", tfl, number(cells[1]))
                expect(f"{name} without patches", off["total_ram_bytes"], number(cells[2]))
                means[0].append(off["total_ram_bytes"] / tfl)
                for k, budget in ((1, []), (2, ["--recompute-mac-budget=15"])):
                    r = compile_report(a.compiler, model, ["--io=arena", "--patches=auto", *budget], work)
                    p = r["patches"]
                    grid = (f"{p['grid'][0]}x{p['grid'][1]}, +{r['recompute_mac_overhead_percent']:.1f}%"
                            if p["applied"] else "-")
                    expect(f"{name} patches {budget or '1%'}", r["total_ram_bytes"], number(cells[2 * k + 1]))
                    expect(f"{name} patches {budget or '1%'} grid", grid, cells[2 * k + 2])
                    expect(f"{name} patches {budget or '1%'} arena no larger than without",
                           r["arena_bytes"] <= off["arena_bytes"], True)
                    means[k].append(r["total_ram_bytes"] / tfl)
            m = re.search(r"Mean total RAM against the TFLite-style arena with inputs and outputs: ([\d.]+) without\s+"
                          r"patches,\s+([\d.]+) with `--patches=auto`, ([\d.]+) with a 15% budget", text)
            if not m:
                failures.append("no 'Mean total RAM ... without patches' line")
            else:
                for k in range(3):
                    got = f"{sum(means[k]) / len(means[k]):.{len(m.group(k + 1).split('.')[1])}f}"
                    expect(f"mean total RAM ratio ({['without patches', 'patches', 'patches, 15%'][k]})",
                           got, m.group(k + 1))
            print(f"patches table: {len(rows)} rows checked")
        else:
            print("public-model table: skipped (no public models directory)")

        checked = 0
        for cells in table_after(text, "| model | budget, cap | arena without | arena with |"):
            m = re.match(r"([\w/]+) \(test model\)$", cells[0])
            if not m or cells[1] != "1%, 1":
                continue
            model = Path(a.models) / m.group(1) / "model.onnx"
            r = compile_report(a.compiler, model, ["--recompute=on"], work)
            rc = r["recompute"]
            name = m.group(1)
            expect(f"{name} arena without recompute", rc["arena_before_bytes"], number(cells[2]))
            expect(f"{name} arena with recompute", rc["arena_after_bytes"], number(cells[3]))
            if cells[5] != "-":
                expect(f"{name} exact recompute optimum", rc["exact_search"]["peak_bytes"], number(cells[5]))
            expect(f"{name} arena equals the modeled peak", r["arena_bytes"], r["peak_bytes"])
            checked += 1
        print(f"recompute table: {checked} test-model rows checked")
        if checked == 0:
            failures.append("the recompute table has no test-model rows")

    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print("PASS: the README's memory tables match the compiler")
    return 0


if __name__ == "__main__":
    sys.exit(main())
