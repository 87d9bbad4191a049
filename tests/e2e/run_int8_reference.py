#!/usr/bin/env python3
"""Quantized models against a numpy reference that follows the ONNX operator definitions.

usage: run_int8_reference.py --compiler build/onnx-to-c [--int8-dir DIR] [--work DIR]
        [--cc CC] MODEL.onnx...

For each model: every 8-bit activation becomes a graph output (as run_int8_models.py --probe-all
does), onnx-to-c compiles it with --requant=float, gcc builds it with -ffp-contract=off and it runs
on seeded normal(0,1) inputs; qdq_reference.py evaluates the same model on the same inputs. Every
8-bit tensor must be bit-identical to the reference. --int8-dir DIR adds resnet8_tiny_32 and
mobilenet_v2_035_96 from DIR (the models on which ONNX Runtime mixes int8 and float paths, so only
this reference checks them bit for bit); they are skipped when DIR is absent.
Prints one line per model; exit 1 if any fails. Run with /usr/bin/python3.
"""
import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
import qdq_reference  # noqa: E402
from run_int8_models import Failure, add_probes, compile_and_run  # noqa: E402

PUBLIC = ["resnet8_tiny_32", "mobilenet_v2_035_96"]


def run_case(args, path, root):
    label = path.parent.name if path.name == "model.onnx" else path.stem
    work = root / label
    work.mkdir(parents=True, exist_ok=True)
    probed = work / "probed.onnx"
    add_probes(path, probed, True)
    names, inputs = common.random_inputs(path, common.model_seed(label))
    _, outs = common.graph_io(probed)
    out_files, _ = compile_and_run(args, probed, work, inputs, len(outs), "probed")
    model = onnx.load(str(probed))
    try:
        refs = qdq_reference.evaluate(model, dict(zip(names, inputs)), [n for n, _ in outs])
    except qdq_reference.Unsupported as e:
        raise Failure(f"the reference does not cover {e}")
    tensors = elements = 0
    differing = []
    for (name, dtype), f, ref in zip(outs, out_files, refs):
        if dtype.kind == "f":
            continue
        out = common.read_raw(f, dtype, ref.shape)
        if ref.dtype != dtype:
            raise Failure(f"{name}: the reference is {ref.dtype}, the program {dtype}")
        d = np.abs(out.astype(np.int64) - ref.astype(np.int64))
        if d.size and d.max() > 0:
            at = np.unravel_index(int(np.argmax(d)), d.shape)
            differing.append(f"{name}: {int((d > 0).sum())} of {d.size} elements differ (worst "
                             f"{int(d.max())} steps, at {list(map(int, at))}: {int(out[at])} "
                             f"instead of {int(ref[at])})")
        tensors += 1
        elements += d.size
    if tensors == 0:
        raise Failure("no 8-bit tensor to compare")
    if differing:
        raise Failure(f"{len(differing)} of {tensors} 8-bit tensor(s) differ from the reference: " +
                      "; ".join(differing))
    return f"PASS {label} [float]: {tensors} 8-bit tensor(s), {elements} element(s) bit-identical"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*")
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--int8-dir")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--work")
    args = ap.parse_args()
    args.requant = "float"
    root = Path(args.work or tempfile.mkdtemp(prefix="oc_int8_ref_"))
    cases = [Path(m) for m in args.models]
    if args.int8_dir and Path(args.int8_dir).is_dir():
        cases += [Path(args.int8_dir) / f"{n}.onnx" for n in PUBLIC
                  if (Path(args.int8_dir) / f"{n}.onnx").exists()]
    elif args.int8_dir:
        print(f"skipped: no quantized public models in {args.int8_dir}")
    failed = 0
    for path in cases:
        try:
            line = run_case(args, path, root)
        except (Failure, RuntimeError, ValueError) as e:
            line = f"FAIL {path}: {e}"
            failed += 1
        print(line, flush=True)
    print(f"{len(cases) - failed} of {len(cases)} int8 model(s) match the reference "
          f"(work dir {root})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
