#!/usr/bin/python3
"""Memory regions end to end: every model compiled with a map that forces a
split (a fast region of a quarter of its one-arena plan, cost 1, and a slow
one large enough for everything, cost 8) computes exactly the bits of its
one-arena build; the report's regions are each within their size, their
arenas laid end to end are the arena, each arena is at least its lower bound,
the access cost lies between its lower bound and the plain baseline, and
`onnx-to-c verify` accepts the report and rejects it with a region's traffic,
the access cost, a region's size or the regions' buffers changed; the header
names each region's size.

    /usr/bin/python3 tests/e2e/run_region_identity.py --compiler build/onnx-to-c --work DIR
        [--public DIR] [--common-options OPT,...] MODEL_DIR...
"""
import json
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_schedule_identity import (build_and_run, collect_cases, compile_model,  # noqa: E402
                                   identity_arguments, prepare_case, run_cases, use_program_cache)

SLOW_COST = 8.0


def split_map(work, arena):
    fast = max(16, arena // 4 // 16 * 16)
    path = work / "map.json"
    path.write_text(json.dumps({"regions": [{"name": "fast", "size": fast, "cost": 1},
                                            {"name": "slow", "size": 2 * arena + 4096, "cost": SLOW_COST}]}))
    return path, fast


def check_report(one, split, fast):
    """The problems of the split build's report."""
    problems = []
    mm = split["memory_map"]
    regions = mm["regions"]
    if [r["name"] for r in regions] != ["fast", "slow"]:
        return ["the report's regions are not the map's"]
    for r in regions:
        if r["arena_bytes"] > r["size_bytes"]:
            problems.append(f"region {r['name']}: arena {r['arena_bytes']} above its size {r['size_bytes']}")
        if r["arena_bytes"] < r["arena_lower_bound_bytes"]:
            problems.append(f"region {r['name']}: arena below its lower bound")
    if sum(r["arena_bytes"] for r in regions) != split["arena_bytes"]:
        problems.append("the regions' arenas do not add up to the arena")
    if sum(r["traffic_bytes"] for r in regions) == 0 and one["arena_bytes"] > 0:
        problems.append("no traffic")
    eps = 1e-5 * max(1.0, mm["access_cost_baseline"])  # the report prints six significant digits
    if not mm["access_cost_lower_bound"] - eps <= mm["access_cost"] <= mm["access_cost_baseline"] + eps:
        problems.append(f"access cost {mm['access_cost']} not within [{mm['access_cost_lower_bound']}, "
                        f"{mm['access_cost_baseline']}]")
    in_regions = sorted(v for r in regions for v in r["buffers"])
    if len(in_regions) != len(set(in_regions)):
        problems.append("a buffer is in two regions")
    return problems


def tamperings(report):
    """Changes to a region report that verify must reject."""
    regions = report["memory_map"]["regions"]

    def traffic(d): d["memory_map"]["regions"][0]["traffic_bytes"] += 4
    def cost(d): d["memory_map"]["access_cost"] = d["memory_map"]["access_cost"] * 0.9 + 1
    def size(d): d["memory_map"]["regions"][1]["size_bytes"] = d["memory_map"]["regions"][1]["arena_bytes"] - 16
    def swap(d):
        g = d["memory_map"]["regions"]
        g[0]["buffers"], g[1]["buffers"] = g[1]["buffers"], g[0]["buffers"]
    cases = [("traffic", traffic), ("cost", cost)]
    if regions[1]["arena_bytes"] >= 16:
        cases.append(("size", size))
    if regions[0]["buffers"] and regions[1]["buffers"]:
        cases.append(("swap", swap))
    return cases


def rejects_tampering(compiler, work, report, model):
    """The labels of the tamperings verify accepted."""
    accepted = []
    for label, tamper in tamperings(report):
        d = json.loads(json.dumps(report))
        tamper(d)
        path = work / f"tampered_{label}.json"
        path.write_text(json.dumps(d))
        if subprocess.run([compiler, "verify", str(path), str(model)], capture_output=True,
                          timeout=600).returncode == 0:
            accepted.append(label)
    return accepted


def check_case(args, name, model, data):
    """Returns (passed, line)."""
    common = args.common_options
    try:
        work, inputs, n_outputs = prepare_case(args.work, name, model, data)
        one_dir, one = compile_model(args.compiler, model, work, "one", common)
        map_path, fast = split_map(work, one["arena_bytes"])
        split_dir, split = compile_model(args.compiler, model, work, "split",
                                         [f"--memory-map={map_path}", *common])
        subprocess.run([args.compiler, "verify", str(work / "split.json"), str(model)], check=True,
                       capture_output=True, timeout=600)
        same = build_and_run(one_dir, work, "one", inputs, n_outputs) == \
            build_and_run(split_dir, work, "split", inputs, n_outputs)
        header = next(split_dir.glob("*.h")).read_text()
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, ValueError) as e:
        detail = getattr(e, "stderr", b"") or b""
        return False, f"FAIL {name}: {e} {detail.decode(errors='replace').strip()}"
    problems = [] if same else ["outputs differ from the one-arena build"]
    problems += check_report(one, split, fast)
    accepted = rejects_tampering(args.compiler, work, split, model)
    if accepted:
        problems.append(f"verify accepts a tampered memory_map ({', '.join(accepted)})")
    if "_ARENA_FAST_SIZE" not in header or "_ARENA_SLOW_SIZE" not in header:
        problems.append("the header does not name the regions' sizes")
    mm = split["memory_map"]
    fast_use = mm["regions"][0]
    line = (f"{name}: arena {one['arena_bytes']} -> fast {fast_use['arena_bytes']}/{fast} + slow "
            f"{mm['regions'][1]['arena_bytes']}, access cost {mm['access_cost']:.0f} (bound "
            f"{mm['access_cost_lower_bound']:.0f}, baseline {mm['access_cost_baseline']:.0f})")
    return not problems, f"{'PASS' if not problems else 'FAIL'} {line}{'; ' + '; '.join(problems) if problems else ''}"


def main():
    args = identity_arguments()
    cases = collect_cases(args.models, args.public)
    use_program_cache(args.work)
    return run_cases(args, cases, check_case)


if __name__ == "__main__":
    sys.exit(main())
