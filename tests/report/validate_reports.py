"""Real JSON reports validate against docs/report.schema.json: the project's
models and, when ../shared/models/public exists, the public ones. Also checks
that the schema is not vacuous (a tampered report is rejected), that
docs/report.md documents every field, and a few facts the schema cannot say
(the peak is the largest live step, one live value per step).

    validate_reports.py --compiler onnx-to-c --work DIR MODEL.onnx... [--public DIR]
        [--recompute-model MODEL.onnx]...
"""
import argparse
import copy
import json
import subprocess
import sys
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "docs" / "report.schema.json"


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def facts(report):
    """What the schema cannot say; returns a list of problems."""
    problems = []
    live, file_live = report["live_bytes"], report["file_order_live_bytes"]
    # The file order is the model's, without recomputed statements.
    originals = report["statements"] - len(report["recompute"]["clones"])
    if len(live) != report["statements"] or len(file_live) != originals:
        problems.append("live_bytes and file_order_live_bytes need one entry per statement")
    if live and max(live) != report["peak_bytes"]:
        problems.append(f"peak_bytes {report['peak_bytes']} is not the largest live_bytes {max(live)}")
    if file_live and max(file_live) != report["baselines"]["file_order_peak_bytes"]:
        problems.append("file_order_peak_bytes is not the largest file_order_live_bytes")
    if live and live[report["peak_step"]] != report["peak_bytes"]:
        problems.append("peak_step is not where the peak is")
    if report["lower_bound_bytes"] > report["peak_bytes"]:
        problems.append("the lower bound exceeds the peak")
    recompute = report["recompute"]
    if report["certified_optimal"] != (report["lower_bound_bytes"] == report["peak_bytes"]
                                       and not recompute["clones"]):
        problems.append("certified_optimal disagrees with peak, bound and recompute")
    if (recompute["peak_after_bytes"], recompute["arena_after_bytes"]) != (report["peak_bytes"],
                                                                          report["arena_bytes"]):
        problems.append("recompute's after figures are not the report's")
    if recompute["peak_after_bytes"] > recompute["peak_before_bytes"] or \
            recompute["arena_after_bytes"] > recompute["arena_before_bytes"]:
        problems.append("recompute made the peak or the arena grow")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--public", type=Path)
    ap.add_argument("--recompute-model", action="append", default=[], type=Path,
                    help="also compile this model with --recompute=on")
    ap.add_argument("models", nargs="+", type=Path)
    args = ap.parse_args()
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    documented = (ROOT / "docs" / "report.md").read_text()
    undocumented = [k for k in schema["properties"] if f"`{k}`" not in documented]
    if undocumented:
        fail(f"docs/report.md does not describe {undocumented}")

    models = [(m, []) for m in args.models]
    if args.public and args.public.is_dir():
        models += [(m, []) for m in sorted(args.public.glob("*.onnx"))]
    models += [(m, ["--recompute=on"]) for m in args.recompute_model]
    args.work.mkdir(parents=True, exist_ok=True)
    reports = []
    for model, options in models:
        tag = (model.stem if model.stem != "model" else model.parent.name) + "".join(
            "_" + o.strip("-").replace("=", "_") for o in options)
        path = args.work / f"{tag}.json"
        p = subprocess.run([args.compiler, model, "-o", args.work / tag, "--report", path, *options],
                           capture_output=True, text=True)
        if p.returncode != 0:
            fail(f"{model}: onnx-to-c failed: {p.stderr.strip()}")
        report = json.loads(path.read_text())
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
        if errors:
            fail(f"{tag}: {len(errors)} schema errors, first at {list(errors[0].path)}: {errors[0].message}")
        problems = facts(report)
        if problems:
            fail(f"{tag}: {problems}")
        reports.append(report)
        print(f"ok: {tag} ({report['statements']} statements, arena {report['arena_bytes']} bytes)")

    # The schema must reject what is wrong.
    tampered = []
    r = copy.deepcopy(reports[0]); del r["arena_bytes"]; tampered.append(("missing field", r))
    r = copy.deepcopy(reports[0]); r["peak_bytes"] = "big"; tampered.append(("wrong type", r))
    r = copy.deepcopy(reports[0]); r["undocumented"] = 1; tampered.append(("unknown field", r))
    r = copy.deepcopy(reports[0]); r["schema_version"] = 2; tampered.append(("other version", r))
    r = copy.deepcopy(reports[0]); r["live_bytes"] = [-1]; tampered.append(("negative bytes", r))
    for what, report in tampered:
        if validator.is_valid(report):
            fail(f"the schema accepts a report with a {what}")
    print(f"ok: {len(reports)} reports valid, {len(tampered)} tampered ones rejected")


if __name__ == "__main__":
    main()
