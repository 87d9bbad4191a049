#!/usr/bin/python3
"""Channels-last layout end to end: with --layout=nhwc every model computes
exactly the bits it computes with --layout=nchw (the same sums in the same
order; the nhwc build also runs with --arena-guard), its report verifies, a
model the pass leaves alone gets the same C text, --layout=auto takes the
smaller of the two arenas, and the named models meet their expectations.

    /usr/bin/python3 tests/e2e/run_layout_identity.py --compiler build/onnx-to-c --work DIR
        [--public DIR] [--common-options OPT,...] [--must-stream NAME,...]
        [--must-not-change NAME,...] MODEL_DIR...

--common-options: options of every build (e.g. --io=arena).
--must-stream: the nhwc build has a rows (or rows_up) contract and a smaller arena, and auto takes it.
--must-not-change: no convolution changes layout (the same C as nchw).
"""
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_recompute_identity import sources  # noqa: E402
from run_schedule_identity import (build_and_run, collect_cases, compile_model,  # noqa: E402
                                   identity_arguments, prepare_case, run_cases, use_program_cache)


def check(nchw, nhwc, auto, stream, no_change):
    problems = []
    rows = [o for o in nhwc["overlaps"] if o["kind"] in ("rows", "rows_up")]
    if auto["arena_bytes"] != min(nchw["arena_bytes"], nhwc["arena_bytes"]):
        problems.append(f"auto's arena {auto['arena_bytes']} is not the smaller one")
    if auto["layout"] != ("nhwc" if nhwc["arena_bytes"] < nchw["arena_bytes"] else "nchw"):
        problems.append(f"auto chose {auto['layout']}")
    if stream and (not rows or nhwc["arena_bytes"] >= nchw["arena_bytes"]):
        problems.append("expected to stream")
    if no_change and any(nhwc["pass_counters"].get(f"channels-last.{what}", 0) for what in
                         ("streaming-convs", "edge-convs", "streaming-pools", "edge-pools", "relaid-inputs")):
        problems.append("expected no layout change")
    return problems, len(rows)


def check_case(args, name, model, data):
    """Returns (passed, line)."""
    common_options = args.common_options
    try:
        work, inputs, n_outputs = prepare_case(args.work, name, model, data)
        nchw_dir, nchw = compile_model(args.compiler, model, work, "nchw", ["--layout=nchw", *common_options])
        nhwc_dir, nhwc = compile_model(args.compiler, model, work, "nhwc", ["--layout=nhwc", *common_options])
        _, auto = compile_model(args.compiler, model, work, "auto", ["--layout=auto", *common_options])
        subprocess.run([args.compiler, "verify", str(work / "nhwc.json"), str(model)], check=True,
                       capture_output=True, timeout=600)
        if nhwc["layout"] == "nhwc" and sources(nhwc_dir) != sources(nchw_dir):
            guard_dir, _ = compile_model(args.compiler, model, work, "nhwc-guard",
                                         ["--layout=nhwc", "--arena-guard", *common_options])
            same = (build_and_run(nchw_dir, work, "nchw", inputs, n_outputs) ==
                    build_and_run(guard_dir, work, "nhwc-guard", inputs, n_outputs))
            what = "outputs differ"
        else:
            same, what = sources(nhwc_dir) == sources(nchw_dir), "C differs"
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, ValueError) as e:
        detail = getattr(e, "stderr", b"") or b""
        return False, f"FAIL {name}: {e} {detail.decode(errors='replace').strip()}"
    problems, rows = check(nchw, nhwc, auto, name in args.must_stream, name in args.must_not_change)
    if not same:
        problems.insert(0, what)
    return not problems, (f"{'PASS' if not problems else 'FAIL'} {name}: arena nchw {nchw['arena_bytes']}, "
                          f"nhwc {nhwc['arena_bytes']} ({rows} rows contracts), auto {auto['layout']}"
                          f"{'; ' + '; '.join(problems) if problems else ''}")


def main():
    args = identity_arguments(must_stream="comma-separated model names",
                              must_not_change="comma-separated model names")
    cases = collect_cases(args.models, args.public)
    use_program_cache(args.work)
    return run_cases(args, cases, check_case, args.must_stream + args.must_not_change)


if __name__ == "__main__":
    sys.exit(main())
