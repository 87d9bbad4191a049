#!/usr/bin/python3
"""`onnx-to-c verify` must accept the reports onnx-to-c writes and reject
tampered ones (peak, bound, certificate flag, order, witness ideal, arena plan; with
--io=arena, where the inputs and outputs are and how long they live).

    /usr/bin/python3 tests/e2e/run_verify_tests.py --compiler build/onnx-to-c --work DIR MODEL_DIR[:OPT,...]...

Options after a colon are passed to onnx-to-c for that model (e.g. `:--recompute=on`).
`--require LABEL` (repeatable): fail unless that tampering applied to at least one model
(e.g. `contract too close` needs a plane contract with a positive displacement).
"""
import argparse
import copy
import json
import subprocess
import sys
from pathlib import Path


# Tamperings that only one check can catch: the rejection must name it.
EXPECTED_ERROR = {"contract too close": "displaces its output too little",
                  "rows too close": "displaces its output too little",
                  "rows up too close": "raises its output too little",
                  "io output overwritten": "before the end of the run",
                  "elements count": "wrong number of elements"}


def tensor_descendants(model):
    """Per ONNX tensor name, the names of every tensor computed from it (the compiler
    fuses nodes, so a statement may read a tensor its node's ONNX inputs do not name)."""
    import onnx  # Debian's python3-onnx
    direct = {}
    for node in onnx.load(str(model), load_external_data=False).graph.node:
        for name in node.input:
            direct.setdefault(name, set()).update(node.output)
    def closure(name, seen):
        for d in direct.get(name, ()):
            if d not in seen:
                seen.add(d)
                closure(d, seen)
        return seen
    return {name: closure(name, set()) for name in direct}


def tamperings(report, graph_outputs, descendants):
    def peak(d): d["peak_bytes"] -= 16
    def bound(d): d["lower_bound_bytes"] += 16
    def certified(d): d["certified_optimal"] = not d["certified_optimal"]
    def order(d):
        # Move the last statement first: it depends on something earlier.
        d["order"].insert(0, d["order"].pop())
    def ideal(d): d["witness"]["cuts"][0]["ideal"] = d["witness"]["cuts"][0]["ideal"][:-1]
    def overlap(d):
        bufs = d["buffers"]
        for a in bufs:
            for b in bufs:
                live_together = a["first_step"] <= b["last_step"] and b["first_step"] <= a["last_step"]
                partners = b["value"] in a.get("overlaps", [])
                if a is not b and live_together and not partners:
                    b["offset"] = a["offset"]
                    return
        raise LookupError
    def outside(d): d["buffers"][0]["offset"] = d["arena_bytes"]
    def contract_credit(d):
        # Claim that an overlap saves more than its buffers' shared extent.
        d["overlaps"][0]["credit_bytes"] += d["alignment"]
    def contract_displacement(d):
        # Shift a contract's output off the place its access order allows.
        c = d["overlaps"][0]
        out = next(b for b in d["buffers"] if c["output_value"] in b["holds"])
        inp = next(b for b in d["buffers"] if c["input_value"] in b["holds"])
        out["offset"] = inp["offset"] + d["alignment"]
    def too_close(d, kind):
        # Consistent but unsafe: a plane (or rows) contract's displacement one
        # alignment unit below its kernel's minimum, its input moved to match
        # (output exactly `displacement` below it) and the credit recomputed,
        # so that only the minimum-displacement check can reject it.
        # rows_up: the output above the input (a negative displacement), one
        # alignment unit less high than its kernel's minimum.
        up = kind == "rows_up"
        c = next((c for c in d["overlaps"] if c["kind"] == kind and (up or c["displacement"] > 0)), None)
        if c is None:
            raise LookupError
        c["displacement"] += d["alignment"] if up else -d["alignment"]
        out = next(b for b in d["buffers"] if c["output_value"] in b["holds"])
        inp = next(b for b in d["buffers"] if c["input_value"] in b["holds"])
        moved = out["offset"] + c["displacement"] - inp["offset"]
        inp["offset"] += moved
        for v in d["values"]:
            if v["value"] in inp["holds"]:
                v["offset"] += moved
        disp = c["displacement"]
        c["credit_bytes"] = inp["bytes"] + out["bytes"] - (max(inp["bytes"], out["bytes"] - disp) - min(0, -disp))
    def contract_kernel(d):
        # Claim an overlap at a statement whose kernel has no such access order.
        taken = {c["statement"] for c in d["overlaps"]}
        c = dict(d["overlaps"][0])
        c["statement"] = next(i for i in d["order"] if i not in taken)
        d["overlaps"].append(c)
    def elide(d):
        # Claim that a statement that computes something runs no code.
        elided = set(d["elided_statements"])
        d["elided_statements"].append(next(i for i in d["order"] if i not in elided))
    def clobber(d):
        # Move one arena value onto the bytes of another that is live with it.
        vals = [v for v in d["values"] if v["space"] == "arena"]
        for a in vals:
            for b in vals:
                if a is not b and a["bytes"] == b["bytes"] and a["offset"] != b["offset"]:
                    a["offset"] = b["offset"]
                    return
        raise LookupError
    def contract_too_close(d): too_close(d, "planes")
    def rows_too_close(d): too_close(d, "rows")
    def rows_up_too_close(d): too_close(d, "rows_up")
    def layout(d):
        # Claim the other layout: the program verify rebuilds then has other
        # kernels (and value ids) than the report's.
        d["layout"] = "nchw" if d["layout"] == "nhwc" else "nhwc"
    def arena_bound(d):
        # Claim the arena meets a bound it does not, or a bound above the truth.
        if d["arena_certified"]:
            d["arena_lower_bound_bytes"] += d["alignment"]
        else:
            d["arena_lower_bound_bytes"] = d["arena_bytes"]
            d["arena_certified"] = d["arena_proven_optimal"] = True
    def arena_certified(d): d["arena_certified"] = not d["arena_certified"]
    cases = [("elide", elide), ("clobber", clobber), ("peak", peak), ("bound", bound), ("certified", certified), ("order", order),
             ("overlap", overlap), ("outside", outside), ("arena bound", arena_bound),
             ("arena certified", arena_certified)]
    if report["overlaps"]:
        cases += [("contract credit", contract_credit), ("contract displacement", contract_displacement),
                  ("contract kernel", contract_kernel), ("contract too close", contract_too_close),
                  ("rows too close", rows_too_close), ("rows up too close", rows_up_too_close)]
    if report["layout"] == "nhwc":
        cases += [("layout", layout)]
    if any(c["kind"] == "elements" for c in report["overlaps"]):
        def elements_count(d):
            # An elements contract over fewer elements than its kernel writes.
            c = next(c for c in d["overlaps"] if c["kind"] == "elements")
            c["elements"] -= 1
        cases += [("elements count", elements_count)]
    if report["recompute"]["clones"]:
        def clone_readers(d):
            # Claim a clone serves a statement that does not read its original.
            c = d["recompute"]["clones"][0]
            c["readers"] = [next(i for i in d["order"] if i not in c["readers"] and i != c["clone_of"])]
        def clones_dropped(d): d["recompute"]["clones"] = []
        def clone_of(d):
            # Claim the clone re-runs another statement.
            c = d["recompute"]["clones"][0]
            c["clone_of"] = c["original"] = next(i for i in d["order"] if i != c["clone_of"])
        cases += [("clone readers", clone_readers), ("clones dropped", clones_dropped),
                  ("clone of", clone_of)]
    if report["patches"]["applied"]:
        def patch_grid(d):
            # Claim a finer grid: verify's rewrite then makes other statements.
            d["patches"]["grid"][0] += 1
        def patches_dropped(d): d["patches"]["applied"] = False
        def patch_halo(d): d["patches"]["extra_macs"] -= 1
        cases += [("patch grid", patch_grid), ("patches dropped", patches_dropped),
                  ("patch halo", patch_halo)]
    if report["io_in_arena"]:
        def io_flag(d): d["io_in_arena"] = False  # the placements keep the inputs in the arena
        def io_total(d): d["total_ram_bytes"] -= d["alignment"]
        def io_output_overwritten(d):
            # Put a buffer written after a graph output's producer onto the output: live
            # together only because the caller reads the output after the run.
            for o in (b for b in d["buffers"] if set(graph_outputs) & set(b["holds"])):
                # The latest such buffer: most likely written after the output's last reader.
                for b in sorted(d["buffers"], key=lambda b: -b["first_step"]):
                    # Not computed from the output (by ONNX names), so its writer does not read it.
                    if (b["first_step"] > o["first_step"] and b["bytes"] <= o["bytes"] and
                            b["name"] not in descendants.get(o["name"], ())):
                        moved = o["offset"] - b["offset"]
                        b["offset"] = o["offset"]
                        for v in d["values"]:
                            if v["value"] in b["holds"]:
                                v["offset"] += moved
                        return
            raise LookupError
        cases += [("io flag", io_flag), ("io total", io_total),
                  ("io output overwritten", io_output_overwritten)]
    if report["witness"]["cuts"] and report["witness"]["cuts"][0]["ideal"]:
        cases.append(("ideal", ideal))
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--require", action="append", default=[], metavar="LABEL",
                    help="a tampering that must apply to at least one model")
    ap.add_argument("--io-only", action="append", default=[], metavar="MODEL_DIR[:OPT,...]",
                    help="a model for the tamperings of --io=arena only (where an output is written "
                         "early, for instance, though other tamperings may not apply)")
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    passed = failed = 0
    applied = set()

    def verify(report_path, model):
        return subprocess.run([args.compiler, "verify", str(report_path), str(model)],
                              capture_output=True, text=True, timeout=300)

    for arg, io_only in [(m, False) for m in args.models] + [(m, True) for m in args.io_only]:
        m, _, opts = arg.partition(":")
        options = [o for o in opts.split(",") if o]
        model = Path(m) / "model.onnx"
        name = Path(m).name + "".join("_" + o.strip("-").replace("=", "_") for o in options)
        report_path = work / f"{name}.json"
        subprocess.run([args.compiler, str(model), "-o", str(work / name), "--report", str(report_path),
                        *options], check=True, capture_output=True, timeout=300)
        report = json.loads(report_path.read_text())
        # The graph's outputs (value ids), for the tamperings that need them: a
        # caller-buffer build's report places them in spaces of their own.
        graph_outputs = []
        if report["io_in_arena"]:
            caller_report = work / f"{name}_caller.json"
            subprocess.run([args.compiler, str(model), "-o", str(work / (name + "_caller")), "--report",
                            str(caller_report), *options, "--io=caller"], check=True, capture_output=True,
                           timeout=300)
            graph_outputs = [v["value"] for v in json.loads(caller_report.read_text())["values"]
                             if v["space"] == "output"]
        res = verify(report_path, model)
        ok = res.returncode == 0 and "verify: ok" in res.stdout
        print(f"{'PASS' if ok else 'FAIL'} {name}: genuine report {'accepted' if ok else 'rejected: ' + res.stderr.strip()}")
        passed, failed = passed + ok, failed + (not ok)
        for label, mutate in tamperings(report, graph_outputs, tensor_descendants(model)):
            if io_only and not label.startswith("io "):
                continue
            bad = copy.deepcopy(report)
            try:
                mutate(bad)
            except (LookupError, IndexError):
                continue
            applied.add(label)
            bad_path = work / f"{name}.{label}.json"
            bad_path.write_text(json.dumps(bad))
            res = verify(bad_path, model)
            ok = res.returncode == 1 and res.stderr.startswith("error: the report does not verify")
            why = "NOT rejected (exit %d)" % res.returncode
            if ok and EXPECTED_ERROR.get(label, "") not in res.stderr:
                ok, why = False, f"rejected for another reason: {res.stderr.strip()}"
            print(f"{'PASS' if ok else 'FAIL'} {name}: tampered {label} {'rejected' if ok else why}")
            passed, failed = passed + ok, failed + (not ok)
    for label in args.require:
        ok = label in applied
        print(f"{'PASS' if ok else 'FAIL'} tampering {label} {'applied' if ok else 'applied to no model'}")
        passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
