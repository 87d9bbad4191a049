#!/usr/bin/env python3
"""End-to-end test of quantized (int8) models against ONNX Runtime.

usage: run_int8_models.py --compiler build/onnx-to-c [--requant float|fixed] [--work DIR]
        [--int8-dir DIR] [--fp32-dir DIR] [--max-arena-ratio R] [--stats FILE.json]
        [--probe-all] MODEL.onnx[:exact|:close]...

For each model: seeded normal(0,1) inputs (as run_models.py); the model's outputs plus the 8-bit
tensors they are computed from become graph outputs (the "probes": the input of a final
DequantizeLinear, or the 8-bit inputs of the last float op); ONNX Runtime runs that model, and
onnx-to-c compiles it (--requant as given), gcc builds it with -ffp-contract=off, and the program
runs on the same inputs. Checks:
  * the model without probes (its own arena plan and overlap contracts, built with --arena-guard,
    its report passing `onnx-to-c verify`) gives the same bytes as the probed one;
  * exact models, float mode: every 8-bit probe bit-identical to ONNX Runtime's;
  * otherwise: 8-bit probes within --lsb steps (default 2);
  * float outputs: within 2% of the output's range (after Softmax), or the probes' tolerance
    in units of the output's quantization step;
  * with --max-arena-ratio R: the arena of the int8 model is at most R times the arena of its
    fp32 model compiled NCHW (--layout=nchw, the int8 kernels' layout), where --fp32-dir holds a
    model of the same file name (both are reported).
--int8-dir DIR adds the static-quantized public models found there, every 8-bit activation
probed: those ONNX Runtime runs entirely on int8 kernels exact, the others close; when DIR is
absent they are skipped.
Prints one line per model; exit 1 if any fails. Run with /usr/bin/python3.
"""
import argparse
import json
import shlex
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

CFLAGS = ["-std=c99", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror", "-pedantic"]


class Failure(Exception):
    pass


def add_probes(model_path, out_path, every):
    """Writes a copy of the model whose outputs also include the 8-bit probes; returns
    (probe names, {output name: scale of its quantization step or None})."""
    m = onnx.load(str(model_path))
    g = m.graph
    producer = {o: n for n in g.node for o in n.output}
    inits = {t.name: t for t in g.initializer}
    probes, steps = [], {}

    def scalar(name):
        return float(onnx.numpy_helper.to_array(inits[name]).reshape(-1)[0]) if name in inits else None

    for out in g.output:
        n = producer.get(out.name)
        if n is None:
            continue
        sources = [n] if n.op_type == "DequantizeLinear" else \
            [producer[i] for i in n.input if i in producer and producer[i].op_type == "DequantizeLinear"]
        for dq in sources:
            if dq.input[0] in inits or dq.input[0] in probes:
                continue
            probes.append(dq.input[0])
            steps[out.name] = scalar(dq.input[1])
    final = set(probes)
    if every:  # every 8-bit activation a QuantizeLinear or QLinear* node writes
        for n in g.node:
            if (n.op_type == "QuantizeLinear" or n.op_type.startswith("QLinear")) and \
                    n.input[0] not in inits and n.output[0] not in probes:
                probes.append(n.output[0])
    known = {o.name for o in g.output}
    value_info = {vi.name: vi for vi in list(g.value_info)}
    for p in probes:
        if p in known:
            continue
        vi = value_info.get(p) or onnx.helper.make_empty_tensor_value_info(p)
        g.output.append(vi)
    inferred = onnx.shape_inference.infer_shapes(m)
    types = {vi.name: vi for vi in inferred.graph.value_info}
    for o in g.output:
        if o.name in types and not o.type.HasField("tensor_type"):
            o.CopyFrom(types[o.name])
    onnx.save(m, str(out_path))
    return probes, final, steps


def compile_and_run(args, model, work, inputs, n_out, tag, extra=()):
    """Compiles, builds and runs `model`; returns (output files, arena bytes)."""
    gen = work / f"{tag}_gen"
    report = work / f"{tag}_report.json"
    res = common.run([args.compiler, model, "-o", gen, "--emit-harness", "--report", report,
                      f"--requant={args.requant}"] + list(extra), 300)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, "onnx-to-c"))
    res = common.run([args.compiler, "verify", report, model], 300)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, "onnx-to-c verify"))
    prog = work / f"{tag}_prog"
    res = common.run(shlex.split(args.cc) + CFLAGS + sorted(str(p) for p in gen.glob("*.c")) +
                     ["-lm", "-o", prog], 300)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, "build"))
    in_files = [work / f"in_{i}.bin" for i in range(len(inputs))]
    out_files = [work / f"{tag}_out_{i}.bin" for i in range(n_out)]
    for arr, f in zip(inputs, in_files):
        common.write_raw(arr, f)
    res = common.run([prog] + in_files + out_files, 300)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, f"program ({tag})"))
    return out_files, json.loads(report.read_text())["arena_bytes"]


def arena_of(args, model, work, tag, options=()):
    rep = work / f"{tag}_report.json"
    res = common.run([args.compiler, model, "-o", work / f"{tag}_gen", "--report", rep, *options], 300)
    if res.returncode != 0:
        raise Failure(common.describe_failure(res, f"onnx-to-c ({tag} model)"))
    return json.loads(rep.read_text())["arena_bytes"]


# The static-quantized public models (../shared/models/int8) and what is promised for each.
PUBLIC_INT8 = [("dscnn_kws_49x10", "exact"), ("dscnn_kws_49x10_qop", "exact"),
               ("dense_ae_640", "exact"), ("resnet8_tiny_32", "close"),
               ("mobilenet_v2_035_96", "close")]


def run_case(args, spec, root, probe_all):
    path, _, kind = spec.partition(":")
    path = Path(path)
    exact = kind != "close"
    label = path.parent.name if path.name == "model.onnx" else path.stem
    work = root / label
    work.mkdir(parents=True, exist_ok=True)
    probed = work / "probed.onnx"
    probes, final, steps = add_probes(path, probed, probe_all)
    names, inputs = common.random_inputs(path, common.model_seed(label))
    refs = common.ort_reference(probed, inputs, work / "ort")
    _, outs = common.graph_io(probed)
    _, outs_orig = common.graph_io(path)
    out_files, _ = compile_and_run(args, probed, work, inputs, len(outs), "probed")
    # The model itself (its own arena plan, overlap contracts, the arena guard; its report's
    # certificate verified): outputs bit-identical to the probed build's.
    plain_files, arena = compile_and_run(args, path, work, inputs, len(outs_orig), "plain",
                                         ["--arena-guard"])
    for (oname, dtype), f in zip(outs_orig, plain_files):
        i = [n for n, _ in outs].index(oname)
        a = common.read_raw(f, dtype, refs[i].shape)
        b = common.read_raw(out_files[i], dtype, refs[i].shape)
        if not np.array_equal(a, b):
            raise Failure(f"output {oname} of the model differs from the probed build's")
    lsb = 0 if exact and args.requant == "float" else args.lsb
    worst_lsb, worst_float, mismatched, compared = 0, 0.0, 0, 0
    for (oname, dtype), f, ref in zip(outs, out_files, refs):
        out = common.read_raw(f, dtype, ref.shape)
        if dtype.kind != "f":
            d = np.abs(out.astype(np.int64) - ref.astype(np.int64))
            worst_lsb = max(worst_lsb, int(d.max()) if d.size else 0)
            mismatched += int((d > 0).sum())
            compared += d.size
            limit = lsb if oname in final or oname in dict(outs_orig) else max(lsb, args.inner_lsb)
            if d.size and d.max() > limit:
                raise Failure(f"output {oname}: {int((d > limit).sum())} of {d.size} elements "
                              f"differ by more than {limit} step(s) (worst {int(d.max())})")
            continue
        diff = float(np.abs(out.astype(np.float64) - ref).max()) if ref.size else 0.0
        worst_float = max(worst_float, diff)
        step = steps.get(oname)
        if step is not None:
            tol = max(lsb, 0) * step * (1.0 + 1e-6) + 1e-6 * float(np.abs(ref).max())
        else:
            tol = (0.02 if lsb else 1e-5) * max(float(ref.max() - ref.min()), 1e-6) + 1e-7
        if diff > tol:
            raise Failure(f"output {oname}: max |diff| {diff:.3g} > {tol:.3g}")
    line = (f"PASS {label} [{args.requant}, {'exact' if lsb == 0 else f'<= {lsb} LSB'}]: "
            f"{len(probes)} 8-bit probe(s), {mismatched} of {compared} element(s) off "
            f"(worst {worst_lsb} LSB), "
            f"float max |diff| {worst_float:.3g}, arena {arena} B")
    stats = {"model": label, "requant": args.requant, "arena_bytes": arena,
             "mismatched": mismatched, "compared": compared, "worst_lsb": worst_lsb, "float_max_diff": worst_float}
    fp32_model = Path(args.fp32_dir or "/nonexistent") / path.name.replace("_qop", "")
    if fp32_model.exists():
        # In the int8 model's layout (the 8-bit kernels are NCHW): the ratio is that of the
        # element sizes, not of the float model's channels-last streaming.
        fp32 = arena_of(args, fp32_model, work, "fp32", ["--layout=nchw"])
        ratio = arena / fp32
        line += f", fp32 arena {fp32} B (ratio {ratio:.3f})"
        stats.update(fp32_arena_bytes=fp32, arena_ratio=ratio)
        if args.max_arena_ratio is not None and ratio > args.max_arena_ratio:
            raise Failure(f"{line}: the arena is {ratio:.3f}x the fp32 model's "
                          f"(> {args.max_arena_ratio}x)")
    return line, stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*")
    ap.add_argument("--int8-dir")
    ap.add_argument("--max-arena-ratio", type=float)
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--requant", choices=["float", "fixed"], default="float")
    ap.add_argument("--lsb", type=int, default=2,
                    help="steps allowed on the outputs and the tensors they come from")
    ap.add_argument("--inner-lsb", type=int, default=0,
                    help="steps allowed on other probed tensors (default: as --lsb)")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--probe-all", action="store_true",
                    help="probe every 8-bit activation, not only those the outputs come from")
    ap.add_argument("--fp32-dir")
    ap.add_argument("--work")
    ap.add_argument("--stats")
    ap.add_argument("--ort-dir")
    args = ap.parse_args()
    common.setup_ort(args.ort_dir)
    root = Path(args.work or tempfile.mkdtemp(prefix="oc_int8_"))
    cases = [(spec, args.probe_all) for spec in args.models]
    if args.int8_dir and Path(args.int8_dir).is_dir():
        for name, kind in PUBLIC_INT8:
            model = Path(args.int8_dir) / f"{name}.onnx"
            if model.exists():
                cases.append((f"{model}:{kind}", True))
    elif args.int8_dir:
        print(f"skipped: no quantized public models in {args.int8_dir}")
    failed, all_stats = 0, []
    for spec, probe_all in cases:
        try:
            line, stats = run_case(args, spec, root, probe_all)
            all_stats.append(stats)
        except (Failure, RuntimeError, ValueError) as e:
            line = f"FAIL {spec} [{args.requant}]: {e}"
            failed += 1
        print(line, flush=True)
    if args.stats:
        Path(args.stats).write_text(json.dumps(all_stats, indent=1) + "\n")
    print(f"{len(cases) - failed} of {len(cases)} int8 model(s) passed "
          f"(work dir {root})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
