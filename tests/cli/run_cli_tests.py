"""The command line: --help states every option's default and docs/cli.md
describes exactly the options --help lists; --version names the revision;
the CI gates --max-arena and --require-certified fail with exit 1, one
`error:` line naming the numbers, and no file written (a recompute program
is never certified); bad values exit 2; --patches=auto lowers the arena, with
bands that reuse every value where the budget buys no halo.

    run_cli_tests.py --compiler onnx-to-c --work DIR
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CNN = ROOT / "models" / "cnn_small" / "model.onnx"
# Its file order is deliberately bad: with --schedule=file it is not certified.
HARD = ROOT / "models" / "hard" / "unet_late_skips" / "model.onnx"
INT8 = ROOT / "models" / "int8_qdq_layers" / "model.onnx"
CHAIN_SKIP = ROOT / "models" / "nhwc_chain_skip" / "model.onnx"
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(compiler, *args):
    p = subprocess.run([compiler, *map(str, args)], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check_verifies(compiler, report, model, tag):
    rc, out, err = run(compiler, "verify", report, model)
    check(rc == 0 and "verify: ok" in out, f"{tag}: the report verifies {err.strip()}")


def parse_work_args():
    """--compiler and --work (emptied and created) of every CLI test script."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True, type=Path)
    args = ap.parse_args()
    if args.work.exists():
        shutil.rmtree(args.work)
    args.work.mkdir(parents=True)
    return args


def help_options(text):
    """{option: its help text (continuation lines joined)} from --help."""
    options, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^  (?:-\w, )?\s*--([a-z-]+)", line)
        if m:
            current = m.group(1)
            options[current] = line
        elif current and line.startswith(" " * 32):
            options[current] += " " + line.strip()
    return options


def test_help_and_docs(compiler):
    rc, out, _ = run(compiler, "--help")
    options = help_options(out)
    check(rc == 0 and len(options) >= 15, f"--help lists {len(options)} options")
    no_default = [o for o, t in options.items() if "(default: " not in t and o not in ("help", "version")]
    check(not no_default, f"--help states every default (missing: {no_default})")
    doc = (ROOT / "docs" / "cli.md").read_text()
    section = doc.split("## OPTIONS", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^`(?:-\w[^`]*`, `)?--([a-z-]+)", section, re.M))
    check(documented == set(options),
          f"docs/cli.md documents the options of --help (only in --help: "
          f"{sorted(set(options) - documented)}, only in the docs: {sorted(documented - set(options))})")
    for o in options:
        if o not in ("help", "version"):
            check(f"Default:" in section.split(f"--{o}", 1)[1].split("\n`", 1)[0],
                  f"docs/cli.md states the default of --{o}")


def test_version(compiler):
    rc, out, _ = run(compiler, "--version")
    m = re.fullmatch(r"onnx-to-c (\d+\.\d+\.\d+)( \(git [0-9a-zA-Z.+-]+\))?\n", out)
    check(rc == 0 and m is not None, f"--version prints the version: {out.strip()!r}")
    cmake = (ROOT / "CMakeLists.txt").read_text()
    check(m is not None and f"VERSION {m.group(1)}" in cmake, "--version is the project's version")
    top = subprocess.run(["git", "-C", ROOT, "rev-parse", "--show-toplevel"], capture_output=True,
                         text=True) if shutil.which("git") else None
    if top and top.returncode == 0 and Path(top.stdout.strip()).resolve() == ROOT.resolve():
        check(m is not None and m.group(2) is not None, "--version names the git revision in a checkout")


def outputs(work, tag):
    return work / tag, work / f"{tag}.json", work / f"{tag}.html"


def compile_with(compiler, work, tag, model, *gate):
    out_dir, report, html = outputs(work, tag)
    rc, _, err = run(compiler, model, "-o", out_dir, "--report", report, "--html-report", html, *gate)
    return rc, err, [p for p in (out_dir, report, html) if p.exists()]


def expect_gate_failure(compiler, work, tag, model, gate, needles):
    rc, err, written = compile_with(compiler, work, tag, model, *gate)
    lines = err.splitlines()
    check(rc == 1 and len(lines) == 1 and lines[0].startswith("error: ")
          and all(n in lines[0] for n in needles),
          f"{' '.join(gate)} fails with exit 1 and one error line naming {needles}: {err.strip()!r}")
    check(not written, f"{' '.join(gate)} writes nothing (found {written})")


def test_max_arena(compiler, work):
    rc, err, _ = compile_with(compiler, work, "reference", CNN)
    check(rc == 0, f"cnn_small compiles {err}")
    report = json.loads((work / "reference.json").read_text())
    arena, bound, step = report["arena_bytes"], report["lower_bound_bytes"], report["peak_step"]
    live = [b for b in report["buffers"] if b["first_step"] <= step <= b["last_step"]]
    biggest = max(live, key=lambda b: b["bytes"])
    rc, _, written = compile_with(compiler, work, "at_limit", CNN, "--max-arena", str(arena))
    check(rc == 0 and len(written) == 3, f"--max-arena {arena} (the arena) passes")
    # Fit first: just below the arena, the cheapest patching that fits.
    rc, err, _ = compile_with(compiler, work, "patched_to_fit", CNN, "--max-arena", str(arena - 1))
    if rc == 0:
        patched = json.loads((work / "patched_to_fit.json").read_text())
        check(patched["patches"]["applied"] and patched["arena_bytes"] <= arena - 1,
              f"--max-arena {arena - 1}: patched to fit ({patched['arena_bytes']} bytes)")
    else:
        check(rc == 1 and f"needs {arena} bytes" in err, f"--max-arena {arena - 1}: fits or fails {err!r}")
    low = 256  # no patching reaches it
    expect_gate_failure(compiler, work, "over_limit", CNN, ["--max-arena", str(low)],
                        [f"needs {arena} bytes", f"--max-arena {low} bytes",
                         f"lower bound for any order {bound} bytes", f"step {step}",
                         f"'{biggest['name']}' ({biggest['bytes']} bytes)"])
    if arena % 1024 == 0:
        k = arena // 1024
        rc, _, _ = compile_with(compiler, work, "kib", CNN, f"--max-arena={k}K")
        check(rc == 0, f"--max-arena={k}K passes for {arena} bytes")
        expect_gate_failure(compiler, work, "kib_over", CNN, ["--max-arena=1K"], ["--max-arena 1024 bytes"])
    for bad in ("-5", "12Q", "", "1e3", "99999999999999"):
        rc, _, err = run(compiler, CNN, "-o", work / "bad", "--max-arena", bad)
        check(rc == 2 and err.startswith("error: ") and not (work / "bad").exists(),
              f"--max-arena {bad!r} is bad usage (exit 2)")


def test_require_certified(compiler, work):
    rc, _, written = compile_with(compiler, work, "certified", CNN, "--require-certified")
    check(rc == 0 and len(written) == 3, "--require-certified passes for a certified order")
    rc, _, _ = compile_with(compiler, work, "file_order", HARD, "--schedule=file")
    report = json.loads((work / "file_order.json").read_text())
    check(rc == 0 and not report["certified_optimal"], "unet_late_skips' file order is not certified")
    expect_gate_failure(compiler, work, "uncertified", HARD, ["--schedule=file", "--require-certified"],
                        ["not certified optimal", f"peak {report['peak_bytes']} bytes",
                         f"lower bound {report['lower_bound_bytes']} bytes"])


def test_requant(compiler, work):
    """--requant picks the 8-bit requantization; its default follows --target."""
    def generated(tag, *opts):
        rc, _, err = run(compiler, INT8, "-o", work / tag, "--name", "m", *opts)
        check(rc == 0, f"int8 model compiles with {' '.join(opts) or 'no options'} {err}")
        return (work / tag / "m.c").read_text() if rc == 0 else ""
    fixed, floating = ".mult = NULL, .q_mult = qm", ".mult = m, .q_mult = NULL"
    for tag, opts, want in [("x86", [], floating), ("fixed", ["--requant=fixed"], fixed),
                            ("m0", ["--target=cortex-m0"], fixed),
                            ("m3", ["--target=cortex-m3"], fixed),
                            ("m4", ["--target=cortex-m4"], floating),
                            ("m0_float", ["--target=cortex-m0", "--requant=float"], floating)]:
        c = generated(tag, *opts)
        other = fixed if want == floating else floating
        check(want in c and other not in c, f"{' '.join(opts) or 'the default'} requantizes "
              f"{'in fixed point' if want == fixed else 'in float32'}")
    rc, _, err = run(compiler, INT8, "-o", work / "bad_requant", "--requant=double")
    check(rc == 2 and err.startswith("error: ") and not (work / "bad_requant").exists(),
          "--requant=double is bad usage (exit 2)")


def test_recompute(compiler, work):
    unet = ROOT / "models" / "recompute_unet" / "model.onnx"
    rc, _, _ = compile_with(compiler, work, "recompute", unet, "--recompute=on")
    report = json.loads((work / "recompute.json").read_text())
    check(rc == 0 and report["recompute"]["clones"] and not report["certified_optimal"],
          "--recompute=on recomputes in recompute_unet and claims no certificate")
    expect_gate_failure(compiler, work, "recompute_certified", unet, ["--recompute=on", "--require-certified"],
                        ["not certified optimal", "recomputes statements"])
    for bad in ("--recompute=maybe", "--patches=on", "--recompute-cap=-1", "--recompute-cap=x", "--recompute-mac-budget=-2",
                "--recompute-mac-budget=lots"):
        rc, _, err = run(compiler, CNN, "-o", work / "bad", "--recompute=on", bad)
        check(rc == 2 and err.startswith("error: ") and not (work / "bad").exists(), f"{bad} is bad usage (exit 2)")


def test_patches(compiler, work):
    # cnn_small's peak pays to patch; the report says so and the arena drops.
    rc, _, _ = compile_with(compiler, work, "patches_off", CNN)
    off = json.loads((work / "patches_off.json").read_text())
    rc2, _, _ = compile_with(compiler, work, "patches", CNN, "--patches=auto")
    on = json.loads((work / "patches.json").read_text())
    check(rc == 0 and rc2 == 0 and on["patches"]["applied"] and on["arena_bytes"] < off["arena_bytes"] and
          on["patches"]["arena_before_bytes"] == off["arena_bytes"] and not off["patches"]["applied"],
          f"--patches=auto patches cnn_small: arena {off['arena_bytes']} -> {on['arena_bytes']}")
    # nhwc_chain_skip's 1% budget buys no halo: only bands that reuse every
    # value's rows pay, with no extra MACs, and the arena stays certified.
    rc, _, _ = compile_with(compiler, work, "reuse_off", CHAIN_SKIP)
    off = json.loads((work / "reuse_off.json").read_text())
    rc2, _, _ = compile_with(compiler, work, "reuse_all", CHAIN_SKIP, "--patches=auto")
    on = json.loads((work / "reuse_all.json").read_text())
    regions = on["patches"].get("regions", [])
    check(rc == 0 and rc2 == 0 and regions and all(r["reuse_all"] and r["reuse"] for r in regions) and
          on["patches"]["extra_macs"] == 0 and on["arena_certified"] and on["arena_bytes"] < off["arena_bytes"],
          f"--patches=auto takes bands reusing every value on nhwc_chain_skip: arena {off['arena_bytes']} -> "
          f"{on['arena_bytes']}, grids {[r['grid'] for r in regions]}")
    check_verifies(compiler, work / "reuse_all.json", CHAIN_SKIP, "bands reusing every value")


def test_numeric_options(compiler, work):
    """Numbers are parsed strictly; --search-effort scales the work budgets, --time-limit is a
    hard stop that the report names when it fires."""
    for bad in ("--alignment=16x", "--alignment=0x10", "--time-limit=abc", "--time-limit=-1",
                "--time-limit=4000", "--search-effort=abc", "--search-effort=-5", "--search-effort=2000",
                "--schedule-budget-ms=700", "--recompute-cap=1.5"):
        rc, _, err = run(compiler, CNN, "-o", work / "bad", bad)
        check(rc == 2 and err.startswith("error: ") and not (work / "bad").exists(), f"{bad} is bad usage (exit 2)")
    budgets, sources = {}, {}
    for name, flags in (("default", []), ("half", ["--search-effort=0.5"]), ("none", ["--search-effort=0"]),
                        ("stop", ["--time-limit=0"]), ("limit10", ["--time-limit=10"])):
        rc, _, _ = compile_with(compiler, work, name, CNN, *flags)
        budgets[name] = json.loads((work / f"{name}.json").read_text())["search_budgets"]
        # The C after its provenance comment (which quotes the command line).
        sources[name] = "".join(c.read_text().split("*/", 1)[-1] for c in sorted((work / name).glob("*.c")))
        check(rc == 0, f"{' '.join(flags) or 'the defaults'} compiles")
    default = budgets["default"]
    check(default["effort"] == 1 and default["time_limit_ms"] == 60000 and not default["cut_short"] and
          default["schedule"] > 0 and default["plan"] > 0, f"the default budgets: {default}")
    check(budgets["half"]["schedule"] == default["schedule"] // 2 and budgets["half"]["plan"] == default["plan"] // 2,
          "--search-effort=0.5 halves every budget")
    check(all(budgets["none"][k] == 0 for k in ("schedule", "plan", "baseline_plans", "joint_plans", "recompute")),
          "--search-effort=0 leaves no search work")
    check(budgets["stop"]["time_limit_ms"] == 0 and budgets["stop"]["cut_short"],
          "--time-limit=0 stops the searches at once, and the report says so")
    check(not budgets["limit10"]["cut_short"] and sources["limit10"] == sources["default"],
          "a time limit that does not fire changes nothing")


def test_emit_ir(compiler, work):
    rc, out, _ = run(compiler, CNN, "--emit=ir")
    check(rc == 0 and out.startswith("program @"), "--emit=ir prints the IR")
    for extra in (["-o", work / "ir_out"], ["--report", work / "ir.json"], ["--print-arena-plan"]):
        rc, _, err = run(compiler, CNN, "--emit=ir", *extra)
        check(rc == 2 and err.startswith("error: ") and "needs --emit=c" in err,
              f"--emit=ir with {extra[0]} is bad usage (exit 2)")


def main():
    args = parse_work_args()
    test_help_and_docs(args.compiler)
    test_version(args.compiler)
    test_max_arena(args.compiler, args.work)
    test_require_certified(args.compiler, args.work)
    test_requant(args.compiler, args.work)
    test_recompute(args.compiler, args.work)
    test_patches(args.compiler, args.work)
    test_numeric_options(args.compiler, args.work)
    test_emit_ir(args.compiler, args.work)
    print(f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
