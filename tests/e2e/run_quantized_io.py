#!/usr/bin/env python3
"""End-to-end test of --quantized-io (8-bit graph inputs and outputs) against ONNX Runtime.

usage: run_quantized_io.py --compiler build/onnx-to-c [--cc gcc] [--work DIR] [--int8-dir DIR]
        [--cortex-m CPU,...] [--measure [--stats FILE.json]] MODEL.onnx[:exact|:close]...

For each 8-bit model: seeded normal(0,1) float inputs (as run_models.py), quantized here as ONNX's
QuantizeLinear defines it (x / scale in float32, rounded half to even, plus the zero point,
saturated) with the scale and zero point of the model's input QuantizeLinear. ONNX Runtime runs the
model with the float inputs; its outputs written by a DequantizeLinear are replaced by that node's
8-bit input, and the input QuantizeLinear's results are added as outputs. Checks:
  * our quantization of each input equals ONNX Runtime's QuantizeLinear, byte for byte;
  * onnx-to-c --quantized-io --io=arena compiles the model (its report verified by `onnx-to-c
    verify`, built with --arena-guard; an input the convolutions read channels-last is relaid
    in place), gcc builds it with -ffp-contract=off, and it runs on the 8-bit inputs:
    every output equals the build without --quantized-io (float inputs, the 8-bit outputs as graph
    outputs) byte for byte: the rest of the graph is unchanged;
  * 8-bit outputs equal ONNX Runtime's on exact models, within --lsb steps on close ones (those
    ONNX Runtime partly runs in float, see run_int8_models.py); float outputs as run_int8_models.py;
  * the header states each 8-bit input's and output's type, scale and zero point, and the report
    lists them.
--int8-dir DIR adds the static-quantized public models found there (skipped when absent).
--cortex-m CPU,... also runs it under QEMU (scripts/run-on-qemu.sh) with --quantized-io, its outputs
bit-identical to the x86-64 build's, and without, and prints both runs' instructions.
--measure also compiles every model with --io=arena, with and without --quantized-io, on x86-64
and cortex-m4, with --patches=off and auto, prints the arena and total RAM of each and fails when
--quantized-io gives a larger arena or an input that is not 1 byte per element.
Prints one line per model; exit 1 if any fails. Run with /usr/bin/python3.
"""
import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from run_int8_models import PUBLIC_INT8, Failure, compile_and_run  # noqa: E402

RUN_ON_QEMU = common.ROOT / "scripts" / "run-on-qemu.sh"


def quantize(x, scale, zero_point, dtype):
    """ONNX QuantizeLinear, per tensor: saturate(round_half_even(x / scale) + zero_point)."""
    info = np.iinfo(dtype)
    q = np.rint(x.astype(np.float32) / np.float32(scale)).astype(np.int64) + int(zero_point)
    return np.clip(q, info.min, info.max).astype(dtype)


def edge_quantization(model_path):
    """({input name: (QuantizeLinear output, scale, zero point, numpy dtype)},
    {output name: DequantizeLinear input}) for the float inputs and DequantizeLinear outputs
    --quantized-io converts."""
    g = onnx.load(str(model_path)).graph
    inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    producer = {o: n for n in g.node for o in n.output}
    inputs, outputs = {}, {}
    for vi in g.input:
        if vi.name in inits or vi.type.tensor_type.elem_type != onnx.TensorProto.FLOAT:
            continue
        q = next(n for n in g.node if vi.name in n.input)
        zp = inits[q.input[2]] if len(q.input) > 2 and q.input[2] else np.array(0, np.uint8)
        inputs[vi.name] = (q.output[0], float(inits[q.input[1]].reshape(-1)[0]),
                           int(zp.reshape(-1)[0]), zp.dtype)
    names = {o.name for o in g.output}
    for o in g.output:
        n = producer.get(o.name)
        if n is not None and n.op_type == "DequantizeLinear" and n.input[0] not in names \
                and n.input[0] not in inits and n.input[0] not in {v.name for v in g.input}:
            outputs[o.name] = n.input[0]
    return inputs, outputs


def with_outputs(model_path, out_path, replace, extra):
    """A copy of the model whose outputs `replace` maps are replaced, `extra` tensors added."""
    m = onnx.load(str(model_path))
    g = m.graph
    wanted = [replace.get(o.name, o.name) for o in g.output] + list(extra)
    inferred = {vi.name: vi for vi in onnx.shape_inference.infer_shapes(m).graph.value_info}
    known = {o.name: o for o in g.output}
    outs = [known[n] if n in known else inferred[n] for n in wanted]
    del g.output[:]
    g.output.extend(outs)
    onnx.save(m, str(out_path))


def header_macros(gen_dir):
    text = "".join(p.read_text() for p in Path(gen_dir).glob("*.h"))
    return dict(re.findall(r"#define \w+?_((?:INPUT|OUTPUT)_\d+_(?:TYPE|SCALE|ZERO_POINT)) (.+)", text))


def check_declared(gen_dir, report_path, q_inputs, q_outputs, in_names, out_names):
    """The report's quantized_io lists each 8-bit input and output (inputs first, in graph
    order) and the header's macros say the same; an input's are its QuantizeLinear's."""
    macros = header_macros(gen_dir)
    records = json.loads(Path(report_path).read_text())["quantized_io"]
    want = sorted([("input", in_names.index(n), q[1:]) for n, q in q_inputs.items()] +
                  [("output", out_names.index(n), None) for n in q_outputs],
                  key=lambda w: (w[0] != "input", w[1]))
    if [(r["kind"], r["index"]) for r in records] != [(k, i) for k, i, _ in want]:
        raise Failure(f"the report's quantized_io lists {records}, expected {want}")
    for rec, (kind, index, model_q) in zip(records, want):
        key = f"{kind.upper()}_{index}"
        try:
            c_type = macros[f"{key}_TYPE"]
            scale = float(macros[f"{key}_SCALE"].rstrip("f"))
            zero_point = int(macros[f"{key}_ZERO_POINT"].strip("()"))
        except KeyError as e:
            raise Failure(f"the header has no {e} macro") from None
        if c_type != f"{rec['type']}_t" or zero_point != rec["zero_point"] or \
                abs(scale - rec["scale"]) > 1e-5 * abs(scale):
            raise Failure(f"the header's {key} macros {macros} differ from the report's {rec}")
        if model_q is not None:
            q_scale, q_zero_point, q_dtype = model_q
            if np.float32(scale) != np.float32(q_scale) or zero_point != q_zero_point or \
                    np.dtype(q_dtype).name != rec["type"]:
                raise Failure(f"{key}: the header says {c_type} {scale} {zero_point}, the model's "
                              f"QuantizeLinear {np.dtype(q_dtype).name} {q_scale} {q_zero_point}")


def parse_spec(spec, root, sub=""):
    """(model path, exact?, label, work folder) of MODEL.onnx[:exact|:close]."""
    path, _, kind = spec.partition(":")
    path = Path(path)
    label = path.parent.name if path.name == "model.onnx" else path.stem
    (root / label / sub).mkdir(parents=True, exist_ok=True)
    return path, kind != "close", label, root / label / sub


def run_case(args, spec, root):
    path, exact, label, work = parse_spec(spec, root)
    q_inputs, q_outputs = edge_quantization(path)
    if not q_inputs:
        raise Failure("no float input read by QuantizeLinear")
    eight_bit = work / "eight_bit_outputs.onnx"  # the model with its DequantizeLinear outputs cut
    with_outputs(path, eight_bit, q_outputs, [])
    probed = work / "ort.onnx"  # and the inputs' QuantizeLinear results as outputs
    with_outputs(path, probed, q_outputs, [q[0] for q in q_inputs.values()])
    names, floats = common.random_inputs(path, common.model_seed(label))
    quantized = [quantize(x, *q_inputs[n][1:]) if n in q_inputs else x for n, x in zip(names, floats)]
    refs = common.ort_reference(probed, floats, work / "ort")
    _, outs = common.graph_io(eight_bit)
    for (n, q), ref in zip(q_inputs.items(), refs[len(outs):]):
        mine = quantized[names.index(n)]
        if mine.dtype != ref.dtype or not np.array_equal(mine, ref):
            raise Failure(f"input {n}: our QuantizeLinear differs from ONNX Runtime's on "
                          f"{int((mine != ref).sum())} of {ref.size} elements")
    # The same model compiled without --quantized-io (float inputs, 8-bit outputs): the reference
    # bytes for everything after the edge conversions.
    base_files, _ = compile_and_run(args, eight_bit, work, floats, len(outs), "float_io")
    qio_files, arena = compile_and_run(args, path, work, quantized, len(outs), "quantized_io",
                                       ["--quantized-io", "--io=arena", "--arena-guard"])
    check_declared(work / "quantized_io_gen", work / "quantized_io_report.json", q_inputs, q_outputs,
                   names, [o for o, _ in common.graph_io(path)[1]])
    lsb = 0 if exact else args.lsb
    worst = 0
    for (oname, dtype), base_f, qio_f, ref in zip(outs, base_files, qio_files, refs):
        out = common.read_raw(qio_f, dtype, ref.shape)
        if not np.array_equal(out, common.read_raw(base_f, dtype, ref.shape)):
            raise Failure(f"output {oname} differs from the build without --quantized-io")
        if dtype.kind == "f":
            tol = (0.02 if lsb else 1e-5) * max(float(ref.max() - ref.min()), 1e-6) + 1e-7
            diff = float(np.abs(out.astype(np.float64) - ref).max())
            if diff > tol:
                raise Failure(f"output {oname}: max |diff| {diff:.3g} against ONNX Runtime > {tol:.3g}")
            continue
        d = np.abs(out.astype(np.int64) - ref.astype(np.int64))
        worst = max(worst, int(d.max()) if d.size else 0)
        if d.size and d.max() > lsb:
            raise Failure(f"output {oname}: {int((d > lsb).sum())} of {d.size} elements differ from "
                          f"ONNX Runtime by more than {lsb} step(s)")
    line_end = "".join(on_cortex_m(args, path, work, cpu, floats, quantized, qio_files) for cpu in args.cortex_m)
    types = ", ".join(f"{n} {np.dtype(q[3]).name} (scale {q[1]:.6g}, zero point {q[2]})"
                      for n, q in q_inputs.items())
    return (f"PASS {label} [{'exact' if lsb == 0 else f'<= {lsb} LSB'}]: 8-bit inputs {types}; "
            f"{len(q_outputs)} output(s) made 8-bit; worst {worst} LSB against ONNX Runtime; arena {arena} B"
            + line_end)


def on_cortex_m(args, path, work, cpu, floats, quantized, x86_files):
    """Runs the model under QEMU with --quantized-io (outputs bit-identical to the x86-64 build's)
    and without (float inputs); returns the instructions of both runs, side by side."""
    counts = []
    for qio, inputs in ((False, floats), (True, quantized)):
        tag = f"{cpu}_{'quantized' if qio else 'float'}_io"
        in_files = [work / f"{tag}_in_{i}.bin" for i in range(len(inputs))]
        for arr, f in zip(inputs, in_files):
            common.write_raw(arr, f)
        outs = [work / f"{tag}_out_{i}.bin" for i in range(len(x86_files))]
        res = common.run(["bash", RUN_ON_QEMU, path, "--cpu", cpu, "--keep", work / f"{tag}_build",
                          "--stats", work / f"{tag}_stats.json"] + in_files + outs +
                         ["--", "--emit-harness"] + (["--quantized-io"] if qio else []),
                         args.timeout + 300, env={"ONNX_TO_C": str(args.compiler)})
        if res.returncode != 0:
            raise Failure(common.describe_failure(res, f"run-on-qemu.sh ({tag})"))
        if qio:
            for i, (a, b) in enumerate(zip(outs, x86_files)):
                if a.read_bytes() != b.read_bytes():
                    raise Failure(f"{cpu}: output {i} differs from the x86-64 build's")
        counts.append(json.loads((work / f"{tag}_stats.json").read_text())["run_instructions"])
    return f"; {cpu} bit-identical to x86-64, run instructions float input {counts[0]} -> 8-bit {counts[1]}"


def measure(args, spec, root):
    """Arena and total RAM with --io=arena, without and with --quantized-io."""
    path, _, label, work = parse_spec(spec, root, "measure")
    rows = []
    for target in ("x86-64", "cortex-m4"):
        for patches in ("off", "auto"):
            row = {"model": label, "target": target, "patches": patches}
            for qio in (False, True):
                tag = f"{target}_{patches}_{'q' if qio else 'f'}"
                rep = work / f"{tag}.json"
                cmd = [args.compiler, path, "-o", work / f"{tag}_gen", "--report", rep, "--io=arena",
                       f"--target={target}", f"--patches={patches}"] + (["--quantized-io"] if qio else [])
                res = common.run(cmd, 600)
                if res.returncode != 0:
                    raise Failure(common.describe_failure(res, "onnx-to-c"))
                r = json.loads(rep.read_text())
                key = "quantized_io" if qio else "float_io"
                row[key] = {"arena_bytes": r["arena_bytes"], "total_ram_bytes": r["total_ram_bytes"]}
                if qio:
                    text = "".join(p.read_text() for p in (work / f"{tag}_gen").glob("*.h"))
                    for i, b, e in re.findall(r"_INPUT_(\d+)_BYTES (\d+)u\n#define \w+_INPUT_\1_ELEMENTS (\d+)u",
                                              text):
                        if f"_INPUT_{i}_TYPE" in text and b != e:
                            raise Failure(f"{tag}: input {i} takes {b} bytes for {e} elements")
            if row["quantized_io"]["arena_bytes"] > row["float_io"]["arena_bytes"]:
                raise Failure(f"{label} {target} --patches={patches}: the arena grows with --quantized-io "
                              f"({row['float_io']['arena_bytes']} -> {row['quantized_io']['arena_bytes']} B)")
            rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*")
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--lsb", type=int, default=2, help="steps allowed on the outputs of close models")
    ap.add_argument("--int8-dir")
    ap.add_argument("--measure", action="store_true")
    ap.add_argument("--cortex-m", default="", type=lambda v: [c for c in v.split(",") if c],
                    help="comma-separated CPUs to run on under QEMU (scripts/run-on-qemu.sh)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per QEMU run")
    ap.add_argument("--stats")
    ap.add_argument("--work")
    ap.add_argument("--ort-dir")
    args = ap.parse_args()
    args.requant = "float"  # compile_and_run's option: ONNX Runtime's requantization
    common.setup_ort(args.ort_dir)
    root = Path(args.work or tempfile.mkdtemp(prefix="oc_qio_"))
    specs = list(args.models)
    if args.int8_dir and Path(args.int8_dir).is_dir():
        specs += [f"{Path(args.int8_dir) / (name + '.onnx')}:{kind}" for name, kind in PUBLIC_INT8
                  if (Path(args.int8_dir) / f"{name}.onnx").exists()]
    elif args.int8_dir:
        print(f"skipped: no quantized public models in {args.int8_dir}")
    failed, table = 0, []
    for spec in specs:
        try:
            line = run_case(args, spec, root)
            if args.measure:
                rows = measure(args, spec, root)
                table += rows
                line += "; --io=arena arena/total RAM float -> 8-bit input: " + ", ".join(
                    f"{r['target']} patches {r['patches']} {r['float_io']['arena_bytes']}/"
                    f"{r['float_io']['total_ram_bytes']} -> {r['quantized_io']['arena_bytes']}/"
                    f"{r['quantized_io']['total_ram_bytes']} B" for r in rows)
        except (Failure, RuntimeError, ValueError, StopIteration, KeyError) as e:
            line = f"FAIL {spec}: {e!r}" if not isinstance(e, Failure) else f"FAIL {spec}: {e}"
            failed += 1
        print(line, flush=True)
    if args.stats:
        Path(args.stats).write_text(json.dumps(table, indent=1) + "\n")
    print(f"{len(specs) - failed} of {len(specs)} model(s) passed (work dir {root})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
