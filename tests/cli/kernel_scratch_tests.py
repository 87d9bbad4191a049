"""--kernel-scratch-budget: the fast kernels' scratch never raises the arena by
default and stays within an explicit budget.

For project models with padded convolutions (and the public models when
../shared is there): by default scratch goes only into bytes the plan leaves
free, so the arena, the peak and the whole certificate (lower bound, certified,
proven optimal, exact search finished) are those of --kernel-scratch-budget=0;
with explicit budgets the arena grows over the scratch-free arena by at most
the budget. The report's counts match the generated code's band-kernel calls,
and `onnx-to-c verify` accepts the report (it re-derives every band size from
the model); with 0 there is no kernel scratch at all and the arena is the
scratch-free one; bad values exit 2.

    kernel_scratch_tests.py --compiler onnx-to-c --work DIR
"""
import json
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
from run_cli_tests import ROOT, check, check_verifies, failures, parse_work_args, run  # noqa: E402

MODELS = [ROOT / "models" / m / "model.onnx" for m in ("cnn_small", "conv2d_basic", "conv1d_dilated_group")]
PUBLIC = ROOT.parent / "shared" / "models" / "public"


def compile_report(compiler, work, tag, model, *options):
    out = work / tag
    rc, _, err = run(compiler, model, "-o", out, "--report", work / f"{tag}.json", *options)
    if rc != 0:
        check(False, f"{tag} compiles: {err.strip()}")
        return None, ""
    # NAME_avx2.c repeats NAME.c's statements (x86-64 dispatch): count them once.
    c = "".join(p.read_text() for p in sorted(out.glob("*.c")) if not p.name.endswith("_avx2.c"))
    return json.loads((work / f"{tag}.json").read_text()), c


def test_model(compiler, work, model, budgets):
    name = model.parent.name if model.name == "model.onnx" else model.stem
    base, c0 = compile_report(compiler, work, f"{name}_none", model, "--kernel-scratch-budget=0")
    if base is None:
        return
    arena0 = base["arena_bytes_without_kernel_scratch"]
    check(base["kernel_scratch_statements"] == 0 and not base["kernel_scratch"]
          and base["arena_bytes"] == arena0 and "oc_conv2d_band_f32(" not in c0
          and base["kernel_scratch_budget_bytes"] == 0,
          f"{name}: budget 0 gives no kernel scratch and the scratch-free arena ({arena0} bytes)")
    for budget in budgets:
        options = [] if budget is None else [f"--kernel-scratch-budget={budget}"]
        tag = f"{name}_{'default' if budget is None else budget}"
        r, c = compile_report(compiler, work, tag, model, *options)
        if r is None:
            continue
        want = 0 if budget is None else budget
        n = r["kernel_scratch_statements"]
        policy = "free-bytes" if budget is None else "budget"
        check(r["kernel_scratch_policy"] == policy, f"{tag}: policy {r['kernel_scratch_policy']}")
        if budget is None:
            def certificate(rep):
                return {"arena_bytes": rep["arena_bytes"], "peak_bytes": rep["peak_bytes"],
                        "lower_bound_bytes": rep["lower_bound_bytes"],
                        "certified_optimal": rep["certified_optimal"],
                        "proven_optimal": rep["proven_optimal"],
                        "exact_search_finished": rep["schedule"]["exact_search_finished"]}
            check(certificate(r) == certificate(base),
                  f"{tag}: the certificate of the scratch-free program: {certificate(r)} "
                  f"against {certificate(base)}")
        grown = r["arena_bytes"] - r["arena_bytes_without_kernel_scratch"]
        check(r["kernel_scratch_budget_bytes"] == want and r["arena_bytes_without_kernel_scratch"] == arena0,
              f"{tag}: budget {r['kernel_scratch_budget_bytes']} (want {want}), scratch-free arena "
              f"{r['arena_bytes_without_kernel_scratch']} (want {arena0})")
        check(0 <= grown <= want, f"{tag}: the arena grows by {grown} bytes, within the budget {want}")
        check(n == len(r["kernel_scratch"]) == c.count("oc_conv2d_band_f32(&p"),
              f"{tag}: {n} band statements, as many in the report's list and in the C")
        sizes = [k["scratch_bytes"] for k in r["kernel_scratch"]]
        check(all(s > 0 for s in sizes), f"{tag}: band sizes {sizes}")
        check_verifies(compiler, work / f"{tag}.json", model, tag)
        if budget is None:
            yield n


def main():
    args = parse_work_args()
    used = 0
    for model in MODELS:
        used += sum(test_model(args.compiler, args.work, model, [None, 16, 1000, 1 << 20]))
    # cnn_small's second convolution finds free bytes at its step (lit: emit/readable-c.test).
    check(used >= 1, f"the project models use the band kernel by default ({used} statements)")
    for name in ("unet_small_64", "squeezenet1_1_96"):
        model = PUBLIC / f"{name}.onnx"
        if model.exists():
            n = sum(test_model(args.compiler, args.work, model, [None]))
            check(n >= 1, f"{name} uses the band kernel by default ({n} statements)")
        else:
            print(f"skip: {model} is absent")
    for bad in ("-1", "x", "", "12Q"):
        rc, _, err = run(args.compiler, MODELS[0], "-o", args.work / "bad", "--kernel-scratch-budget", bad)
        check(rc == 2 and err.startswith("error: ") and not (args.work / "bad").exists(),
              f"--kernel-scratch-budget {bad!r} is bad usage (exit 2)")
    print(f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
