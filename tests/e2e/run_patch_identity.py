#!/usr/bin/python3
"""Patch-based execution end to end: with --patches=always (the best patching
under a generous MAC budget, kept even when it does not pay) every model
computes exactly the bits it computes unpatched (under --arena-guard), its
report verifies, and --patches=auto never raises the arena; where auto finds
nothing, the C is the unpatched C byte for byte. Named models must meet their
expectations.

    /usr/bin/python3 tests/e2e/run_patch_identity.py --compiler build/onnx-to-c --work DIR
        [--public DIR] [--common-options OPT,...] [--must-patch NAME[:RATIO],...]
        MODEL_DIR...

--must-patch NAME: auto patches the model and its arena drops; NAME:RATIO: also its total
    RAM is at most RATIO x the TFLite-style arena with inputs and outputs.
"""
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_recompute_identity import sources  # noqa: E402
from run_schedule_identity import (build_and_run, collect_cases, compile_model,  # noqa: E402
                                   identity_arguments, prepare_case, run_cases, use_program_cache)

BUDGET = "--recompute-mac-budget=15"


def check(off, always, auto, expect):
    problems = []
    if auto["arena_bytes"] > off["arena_bytes"]:
        problems.append(f"auto's arena {auto['arena_bytes']} is above the unpatched {off['arena_bytes']}")
    if auto["patches"]["applied"] and auto["arena_bytes"] >= off["arena_bytes"]:
        problems.append("auto kept a patching that does not lower the arena")
    if auto["patches"]["applied"] and auto["recompute_mac_overhead_percent"] > 15.0 + 1e-9:
        problems.append(f"auto spent {auto['recompute_mac_overhead_percent']:.1f}% extra MACs")
    if expect is not None:
        if not auto["patches"]["applied"] or auto["arena_bytes"] >= off["arena_bytes"]:
            problems.append("expected auto to patch and lower the arena")
        ratio = auto["total_ram_bytes"] / off["tflite_style_io_arena_bytes"]
        if expect and ratio > expect:
            problems.append(f"total RAM ratio {ratio:.3f} above {expect}")
    if always["patches"]["applied"] and always["patches"]["extra_macs"] != \
            always["patches"]["patched_macs"] - always["patches"]["region_macs"]:
        problems.append("extra MACs are not the halo's")
    return problems


def check_case(args, name, model, data):
    """Returns (passed, line)."""
    common = args.common_options
    try:
        work, inputs, n_outputs = prepare_case(args.work, name, model, data)
        off_dir, off = compile_model(args.compiler, model, work, "off", ["--patches=off", *common])
        always_dir, always = compile_model(args.compiler, model, work, "always",
                                           ["--patches=always", "--arena-guard", BUDGET, *common])
        auto_dir, auto = compile_model(args.compiler, model, work, "auto", ["--patches=auto", BUDGET, *common])
        for label in ("always", "auto"):
            subprocess.run([args.compiler, "verify", str(work / f"{label}.json"), str(model)], check=True,
                           capture_output=True, timeout=600)
        ref = build_and_run(off_dir, work, "off", inputs, n_outputs)
        same = ref == build_and_run(always_dir, work, "always", inputs, n_outputs)
        what = "outputs differ (always)"
        if same and auto["patches"]["applied"]:
            same, what = ref == build_and_run(auto_dir, work, "auto", inputs, n_outputs), "outputs differ (auto)"
        elif same:
            same, what = sources(auto_dir) == sources(off_dir), "auto found nothing but the C differs"
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, ValueError) as e:
        detail = getattr(e, "stderr", b"") or b""
        return False, f"FAIL {name}: {e} {detail.decode(errors='replace').strip()}"
    problems = check(off, always, auto, args.must_patch.get(name))
    if not same:
        problems.insert(0, what)
    grid = lambda r: "x".join(map(str, r["patches"]["grid"])) if r["patches"]["applied"] else "none"
    return not problems, (f"{'PASS' if not problems else 'FAIL'} {name}: arena off {off['arena_bytes']}, "
                          f"always {always['arena_bytes']} (grid {grid(always)}), auto {auto['arena_bytes']} "
                          f"(grid {grid(auto)}, +{auto['recompute_mac_overhead_percent']:.1f}% MACs)"
                          f"{'; ' + '; '.join(problems) if problems else ''}")


def main():
    args = identity_arguments(must_patch="comma-separated NAME or NAME:RATIO")
    expectations = {}
    for item in args.must_patch:
        name, _, ratio = item.partition(":")
        expectations[name] = float(ratio) if ratio else 0.0
    args.must_patch = expectations
    cases = collect_cases(args.models, args.public)
    use_program_cache(args.work)
    return run_cases(args, cases, check_case, list(args.must_patch))


if __name__ == "__main__":
    sys.exit(main())
