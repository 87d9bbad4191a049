"""The memory tables of the README and docs/benchmarks.md against the compiler, cell by cell.

  * the arena table ("| model | TFLite-style arena | our arena without overlap |"): for
    each public model, the TFLite-style arena, the arena without overlap, the arena, the peak,
    the lower bound and the certificate, compiled as the table says
    (--kernel-scratch-budget=0), and the mean ratios below it; with the default options
    (kernel scratch in free bytes only), the arena equals the modeled peak where the table
    says so, and the certificate column still holds;
  * the total-RAM table: the TFLite-style arena with the inputs and outputs in it, our arena
    plus the caller's buffers (--io=caller), our arena holding them (--io=arena), its lower
    bound and certificate, and the mean ratios below it;
  * the patches table: total RAM with --io=arena without patches, with --patches=auto and with
    it at a 15% MAC budget, the grid and extra MACs of each, and the mean ratios below it;
  * the recompute table's rows for the project's test models (1%, cap 1): arena without and
    with recompute, and the exact search's optimum.
"""
import json
import re
from pathlib import Path

from common import run
from doc_tables import decimals, number, table_after

ARENA = "| model | TFLite-style arena | our arena without overlap |"
TOTAL_RAM = "| model | TFLite-style arena with inputs and outputs | our arena + caller buffers"
PATCHES = "| model | TFLite-style arena with inputs and outputs | without patches |"
RECOMPUTE = "| model | budget, cap | arena without | arena with |"


class Compiler:
    """Compiles models into reports, each (model, options) once per run."""

    def __init__(self, path, work):
        self.path, self.work, self.reports = path, Path(work), {}

    def report(self, model, options=()):
        key = (str(model), tuple(options))
        if key not in self.reports:
            out = self.work / f"{model.parent.name}_{model.stem}_{len(self.reports)}"
            # The work budgets define the figures; the wall-clock hard stop is
            # lifted so a loaded machine cannot cut a search short.
            res = run([self.path, str(model), "-o", str(out), "--report", str(out / "report.json"),
                       "--time-limit=3600", *options], timeout=3600)
            if res.returncode != 0:
                raise SystemExit(f"FAIL: {model} {' '.join(options)}: exit {res.returncode}: "
                                 f"{res.stderr[-400:]}")
            self.reports[key] = json.loads((out / "report.json").read_text())
        return self.reports[key]


def check_mean_line(check, doc, text, pattern, what, values):
    """The mean figures of the line matching `pattern` against the means of `values` (lists)."""
    m = re.search(pattern, text)
    if not m:
        check.fail(doc, f"no '{what}' line")
        return
    for k, vals in enumerate(values):
        shown = m.group(k + 1)
        check.expect(doc, f"{what} ({k + 1})", f"{sum(vals) / len(vals):.{decimals(shown)}f}", shown)


def check_arena_table(check, doc, text, public, compiler):
    rows = table_after(text, ARENA)
    ratios, ratios_no_overlap = [], []
    for cells in rows:
        name, certified = cells[0], cells[6]
        model = public / f"{name}.onnx"
        r = compiler.report(model, ["--kernel-scratch-budget=0"])
        for col, key in enumerate(("tflite_style_arena_bytes", "no_overlap_arena_bytes", "arena_bytes",
                                   "peak_bytes", "lower_bound_bytes"), start=1):
            check.expect(doc, f"{name} {key}", r[key], number(cells[col]))
        check.expect(doc, f"{name} certified", r["certified_optimal"], certified.startswith("yes"))
        if "exhaustive search" in certified:
            check.expect(doc, f"{name} proven optimal by the exhaustive search", r["proven_optimal"], True)
        ratios.append(r["arena_bytes"] / r["tflite_style_arena_bytes"])
        ratios_no_overlap.append(r["no_overlap_arena_bytes"] / r["tflite_style_arena_bytes"])
        d = compiler.report(model)
        # Where the table shows the arena above the peak (concat buffers in parts, whose
        # fixed offsets the packing may not fit into the peak), it says so.
        if number(cells[3]) == number(cells[4]):
            check.expect(doc, f"{name} (default options): arena equals the modeled peak", d["arena_bytes"],
                         d["peak_bytes"])
        check.expect(doc, f"{name} (default options): certified", d["certified_optimal"],
                     certified.startswith("yes"))
        check.expect(doc, f"{name} (default options): proven optimal", d["proven_optimal"], True)
    check_mean_line(check, doc, text, r"Mean ratio to the TFLite-style arena: ([\d.]+) \(([\d.]+) without overlap\)",
                    "Mean ratio to the TFLite-style arena", [ratios, ratios_no_overlap])
    return len(rows)


def check_total_ram_table(check, doc, text, public, compiler):
    rows = table_after(text, TOTAL_RAM)
    caller_ratios, arena_ratios = [], []
    for cells in rows:
        name = cells[0]
        model = public / f"{name}.onnx"
        c = compiler.report(model, ["--io=caller"])
        r = compiler.report(model, ["--io=arena"])
        tfl = r["tflite_style_io_arena_bytes"]
        check.expect(doc, f"{name} TFLite-style arena with inputs and outputs", tfl, number(cells[1]))
        check.expect(doc, f"{name} arena + caller buffers", c["total_ram_bytes"], number(cells[2]))
        check.expect(doc, f"{name} arena holding them", r["total_ram_bytes"], number(cells[3]))
        check.expect(doc, f"{name} (--io=arena) lower bound", r["lower_bound_bytes"], number(cells[4]))
        check.expect(doc, f"{name} (--io=arena) certified", r["certified_optimal"], cells[5].startswith("yes"))
        if "exhaustive search" in cells[5]:
            check.expect(doc, f"{name} (--io=arena) proven optimal", r["proven_optimal"], True)
        # The arena may miss the modeled peak (fixed offsets of concat parts or contract
        # chains pack imperfectly): the row says so.
        check.expect(doc, f"{name} (--io=arena) arena above the modeled peak",
                     r["arena_bytes"] != r["peak_bytes"], "above the peak" in cells[5])
        caller_ratios.append(c["total_ram_bytes"] / tfl)
        arena_ratios.append(r["total_ram_bytes"] / tfl)
    check_mean_line(check, doc, text, r"Mean total RAM against that arena: ([\d.]+) with the inputs and outputs\s+"
                    r"in\s+our\s+arena, ([\d.]+) with\s+caller buffers", "Mean total RAM against that arena",
                    [arena_ratios, caller_ratios])
    return len(rows)


def grid_label(region):
    """A region's grid as the patches table writes it: 12x4, 14x1 reuse, 24x1 reuse all."""
    reuse = " reuse all" if region.get("reuse_all") else " reuse" if region.get("reuse") else ""
    return f"{region['grid'][0]}x{region['grid'][1]}{reuse}"


def check_patches_table(check, doc, text, public, compiler):
    rows = table_after(text, PATCHES)
    means = [[], [], []]
    for cells in rows:
        name = cells[0]
        model = public / f"{name}.onnx"
        off = compiler.report(model, ["--io=arena"])
        tfl = off["tflite_style_io_arena_bytes"]
        check.expect(doc, f"{name} TFLite-style arena with inputs and outputs", tfl, number(cells[1]))
        check.expect(doc, f"{name} without patches", off["total_ram_bytes"], number(cells[2]))
        means[0].append(off["total_ram_bytes"] / tfl)
        for k, budget in ((1, []), (2, ["--recompute-mac-budget=15"])):
            r = compiler.report(model, ["--io=arena", "--patches=auto", *budget])
            p = r["patches"]
            grids = " + ".join(grid_label(q) for q in p["regions"])
            grid = f"{grids}, +{r['recompute_mac_overhead_percent']:.1f}%" if p["applied"] else "-"
            label = f"{name} patches {budget or '1%'}"
            check.expect(doc, label, r["total_ram_bytes"], number(cells[2 * k + 1]))
            check.expect(doc, f"{label} grid", grid, cells[2 * k + 2])
            check.expect(doc, f"{label} arena no larger than without", r["arena_bytes"] <= off["arena_bytes"], True)
            means[k].append(r["total_ram_bytes"] / tfl)
    check_mean_line(check, doc, text, r"Mean total RAM against the TFLite-style arena with inputs and outputs: "
                    r"([\d.]+) without\s+patches,\s+([\d.]+) with `--patches=auto`, ([\d.]+) with a 15% budget",
                    "Mean total RAM ... without patches", means)
    return len(rows)


def check_recompute_rows(check, doc, text, models, compiler):
    checked = 0
    for cells in table_after(text, RECOMPUTE):
        m = re.match(r"([\w/]+) \(test model\)$", cells[0])
        if not m or cells[1] != "1%, 1":
            continue
        name = m.group(1)
        r = compiler.report(Path(models) / name / "model.onnx", ["--recompute=on"])
        rc = r["recompute"]
        check.expect(doc, f"{name} arena without recompute", rc["arena_before_bytes"], number(cells[2]))
        check.expect(doc, f"{name} arena with recompute", rc["arena_after_bytes"], number(cells[3]))
        if cells[5] != "-":
            check.expect(doc, f"{name} exact recompute optimum", rc["exact_search"]["peak_bytes"], number(cells[5]))
        check.expect(doc, f"{name} arena equals the modeled peak", r["arena_bytes"], r["peak_bytes"])
        checked += 1
    if checked == 0:
        check.fail(doc, "the recompute table has no test-model rows")
    return checked
