#!/usr/bin/python3
"""Selective recompute end to end: with --recompute=on every model computes
exactly the bits it computes without (the same kernels on the same data; the
recompute build also runs with --arena-guard; where nothing is recomputed, the
generated C is the same text), the peak and arena never grow,
the report verifies and claims no order-bound certificate for a recompute
program, the generated C marks each second run, and the named models meet
their expectations.

    /usr/bin/python3 tests/e2e/run_recompute_identity.py --compiler build/onnx-to-c --work DIR
        [--public DIR] [--options OPT,...] [--common-options OPT,...] [--must-pay NAME,...]
        [--must-not-change NAME,...] MODEL_DIR...

--options: more options for the recompute build (e.g. a larger MAC budget).
--common-options: options of both builds (e.g. --io=arena).
--must-pay: the arena drops by at least 5% at no more than 1% extra MACs.
--must-not-change: no clone, the same order and the same arena as without.
"""
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from run_schedule_identity import (build_and_run, collect_cases, compile_model,  # noqa: E402
                                   identity_arguments, prepare_case, run_cases, use_program_cache)


def sources(out):
    """The generated C without its provenance lines (they name the options)."""
    return {p.name: "\n".join(l for l in p.read_text().splitlines() if "onnx-to-c " not in l)
            for p in sorted(out.glob("*.[ch]"))}


def check(name, off, on, c_text, pay, no_change):
    problems = []
    rc = on["recompute"]
    clones = rc["clones"]
    if on["peak_bytes"] > off["peak_bytes"]:
        problems.append(f"peak grew {off['peak_bytes']} -> {on['peak_bytes']}")
    if on["arena_bytes"] > off["arena_bytes"]:
        problems.append(f"arena grew {off['arena_bytes']} -> {on['arena_bytes']}")
    if rc["arena_before_bytes"] != off["arena_bytes"] and not clones:
        problems.append("arena_before differs from the build without recompute")
    if clones and on["certified_optimal"]:
        problems.append("a recompute program claims the order-bound certificate")
    if c_text.count("recompute: runs statement") != len(clones):
        problems.append("the C does not mark every second run")
    if on["recompute_mac_overhead_percent"] > rc["mac_budget_percent"] + 1e-9:
        problems.append("over the MAC budget")
    if pay:
        drop = 1 - on["arena_bytes"] / off["arena_bytes"]
        if drop < 0.05 or on["recompute_mac_overhead_percent"] > 1.0:
            problems.append(f"expected to pay: arena drop {100 * drop:.1f}%, "
                            f"{on['recompute_mac_overhead_percent']:.3f}% MACs")
    if no_change and (clones or on["order"] != off["order"] or on["arena_bytes"] != off["arena_bytes"]):
        problems.append("expected no change")
    return problems


def check_case(args, name, model, data):
    """Returns (passed, line)."""
    try:
        work, inputs, n_outputs = prepare_case(args.work, name, model, data)
        common_options = args.common_options
        off_dir, off = compile_model(args.compiler, model, work, "off", common_options)
        extra = args.options + common_options
        on_dir, on = compile_model(args.compiler, model, work, "on", ["--recompute=on", *extra])
        subprocess.run([args.compiler, "verify", str(work / "on.json"), str(model)], check=True,
                       capture_output=True, timeout=600)
        # NAME_avx2.c repeats NAME.c's statements (x86-64 dispatch): count them once.
        c_text = "".join(t for n, t in sources(on_dir).items() if not n.endswith("_avx2.c"))
        if on["recompute"]["clones"]:
            # Run both, the recompute build with every write checked.
            guard_dir, _ = compile_model(args.compiler, model, work, "on-guard",
                                         ["--recompute=on", "--arena-guard", *extra])
            same = (build_and_run(off_dir, work, "off", inputs, n_outputs) ==
                    build_and_run(guard_dir, work, "on-guard", inputs, n_outputs))
        else:
            # Nothing recomputed: the generated C must be the same text.
            same = sources(on_dir) == sources(off_dir)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, ValueError) as e:
        detail = getattr(e, "stderr", b"") or b""
        return False, f"FAIL {name}: {e} {detail.decode(errors='replace').strip()}"
    problems = [] if same else ["outputs differ" if on["recompute"]["clones"] else "C differs"]
    problems += check(name, off, on, c_text, name in args.must_pay, name in args.must_not_change)
    rc = on["recompute"]
    exact = rc["exact_search"]
    return not problems, (f"{'PASS' if not problems else 'FAIL'} {name}: arena {off['arena_bytes']} -> "
                          f"{on['arena_bytes']}, peak {off['peak_bytes']} -> {on['peak_bytes']}, "
                          f"{len(rc['clones'])} clones, +{on['recompute_extra_macs']} MACs "
                          f"({on['recompute_mac_overhead_percent']:.3f}%)"
                          f"{', exact peak %d' % exact['peak_bytes'] if exact['finished'] else ''}"
                          f"{'; ' + '; '.join(problems) if problems else ''}")


def main():
    args = identity_arguments(options="comma-separated extra options of the recompute build",
                              must_pay="comma-separated model names",
                              must_not_change="comma-separated model names")
    cases = collect_cases(args.models, args.public)
    use_program_cache(args.work)
    return run_cases(args, cases, check_case, args.must_pay + args.must_not_change)


if __name__ == "__main__":
    sys.exit(main())
