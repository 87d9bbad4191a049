#!/usr/bin/python3
"""Generate small ONNX models whose stored (file) order is bad for memory.

    /usr/bin/python3 models/generate_hard.py [--out DIR] [--ort-dir DIR] [--check COMPILER] [NAME ...]

Each model is written like models/generate.py does (ONNX test-data layout):
    <out>/<name>/model.onnx
    <out>/<name>/test_data_set_0/input_<i>.pb    (seeded random inputs)
    <out>/<name>/test_data_set_0/output_<i>.pb   (reference outputs from ONNX Runtime)
plus <out>/index.tsv (name, opset, ops, description). The default <out> is models/hard/.

The graphs are scheduling puzzles: wide fork-joins whose branches have very different
sizes stored big-branch-last or interleaved, a U-Net whose skip connections are squeezed
only right before the decoder needs them, a DenseNet block (Concat of every earlier
feature) with two-way layers stored interleaved, and an Inception block with every
branch's first layer stored first. A memory-aware schedule beats the file order on each;
the outputs must not change (the same kernels run on the same data). Weights are tiny:
the whole folder stays far below 300 KB.

--check COMPILER compiles every model with `COMPILER MODEL -o TMP --report R.json` and
prints the file-order peak, the chosen peak and the lower bound from the report; it fails
when the chosen order does not beat the file order.
Needs Debian's python3-onnx and numpy (run with /usr/bin/python3) and ONNX Runtime for
Node ($ONNX_TO_C_ORT_DIR or --ort-dir, see scripts/install_ort.sh).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate  # noqa: E402  (Builder, ONNX Runtime runner)

ROOT = Path(__file__).resolve().parent.parent
HARD = {}  # name -> (builder function, opset)


def hard_model(name, opset=13):
    def register(fn):
        assert name not in HARD, name
        HARD[name] = (fn, opset)
        return fn
    return register


def conv(b, x, cin, cout, k=1, group=1, relu=True):
    """Conv k x k (same padding) with bias, optionally followed by Relu (fused by the compiler)."""
    p = k // 2
    y = b.node("Conv", [x, b.weight([cout, cin // group, k, k]), b.bias(cout)],
               kernel_shape=[k, k], pads=[p, p, p, p], group=group)
    return b.node("Relu", [y]) if relu else y


# ---------------------------------------------------------------------------
# Wide fork-joins
# ---------------------------------------------------------------------------

# Branches: (expanded channels, depth of the expanded part, output channels).
# The expanded tensors differ by up to 16x between branches; every branch ends
# small, so the best order runs one branch at a time, the biggest first.
FORK_BRANCHES = [(32, 2, 2), (16, 1, 2), (8, 2, 2), (4, 1, 2), (2, 1, 2), (24, 1, 2)]


def _branch_steps(b, x, cin, expand, depth, cout):
    """The layers of one branch as a list of closures (so they can be stored in any order)."""
    state = {"t": x}

    def first():
        state["t"] = conv(b, state["t"], cin, expand, k=1)

    def middle():
        state["t"] = conv(b, state["t"], expand, expand, k=3, group=expand)  # depthwise 3x3

    def last():
        state["t"] = conv(b, state["t"], expand, cout, k=1, relu=False)

    return [first] + [middle] * (depth - 1) + [last], state


@hard_model("fork_join_big_last")
def _(b):
    """wide fork-join (6 branches, expanded tensors 2..32 channels at 24x24): small branches stored first, the biggest last"""
    x = b.input([1, 4, 24, 24])
    stem = conv(b, x, 4, 4, k=3)
    branches = sorted(FORK_BRANCHES, key=lambda br: br[0])  # biggest last
    outs = []
    for expand, depth, cout in branches:
        steps, state = _branch_steps(b, stem, 4, expand, depth, cout)
        for step in steps:
            step()
        outs.append(state["t"])
    y = b.node("Concat", outs, axis=1)
    b.output(conv(b, y, 2 * len(outs), 2, k=1, relu=False))


@hard_model("fork_join_interleaved")
def _(b):
    """wide fork-join (6 branches of very different sizes): stored layer by layer across the branches (every expanded tensor live at once)"""
    x = b.input([1, 4, 24, 24])
    stem = conv(b, x, 4, 4, k=3)
    branches = [_branch_steps(b, stem, 4, e, d, c) for e, d, c in FORK_BRANCHES]
    longest = max(len(steps) for steps, _ in branches)
    for i in range(longest):  # round robin: first layers of all branches, then the second ones...
        for steps, _state in branches:
            if i < len(steps):
                steps[i]()
    y = b.node("Concat", [state["t"] for _steps, state in branches], axis=1)
    b.output(conv(b, y, 2 * len(branches), 2, k=1, relu=False))


# ---------------------------------------------------------------------------
# U-Net with skips
# ---------------------------------------------------------------------------

@hard_model("unet_late_skips")
def _(b):
    """U-Net, 3 levels (32x32 -> 8x8), skips squeezed by 1x1 convs stored right before their Concat (so the full-size skips stay live through the bottleneck)"""
    x = b.input([1, 3, 32, 32])
    e0 = conv(b, conv(b, x, 3, 8, k=3), 8, 8, k=3, group=8)            # 8 x 32 x 32
    d0 = b.node("MaxPool", [e0], kernel_shape=[2, 2], strides=[2, 2])
    e1 = conv(b, conv(b, d0, 8, 32, k=1), 32, 32, k=3, group=32)       # 32 x 16 x 16
    d1 = b.node("MaxPool", [e1], kernel_shape=[2, 2], strides=[2, 2])
    m = conv(b, conv(b, d1, 32, 64, k=1), 64, 64, k=3, group=64)       # 64 x 8 x 8
    u1 = b.node("ConvTranspose", [m, b.weight([64, 8, 2, 2]), b.bias(8)],
                kernel_shape=[2, 2], strides=[2, 2])                    # 8 x 16 x 16
    s1 = conv(b, e1, 32, 4, k=1)                                        # the squeeze, stored late
    c1 = b.node("Concat", [u1, s1], axis=1)
    y1 = conv(b, c1, 12, 8, k=3)
    u0 = b.node("ConvTranspose", [y1, b.weight([8, 4, 2, 2]), b.bias(4)],
                kernel_shape=[2, 2], strides=[2, 2])                    # 4 x 32 x 32
    s0 = conv(b, e0, 8, 2, k=1)                                         # the squeeze, stored late
    c0 = b.node("Concat", [u0, s0], axis=1)
    b.output(conv(b, c0, 6, 1, k=3, relu=False))


# ---------------------------------------------------------------------------
# DenseNet block
# ---------------------------------------------------------------------------

@hard_model("densenet_two_way")
def _(b):
    """DenseNet block of 4 two-way layers (PeleeNet): each layer Concats every earlier feature, then a 1x1-3x3 and a 1x1-3x3-3x3 branch with wide bottlenecks, stored interleaved"""
    x = b.input([1, 4, 16, 16])
    features = [conv(b, x, 4, 8, k=3)]
    channels = 8
    growth = 4
    for _layer in range(4):
        c = features[0] if len(features) == 1 else b.node("Concat", features, axis=1)
        a1 = conv(b, c, channels, 24, k=1)                  # wide bottlenecks, both stored first
        b1 = conv(b, c, channels, 16, k=1)
        a2 = conv(b, a1, 24, growth // 2, k=3)
        b2 = conv(b, b1, 16, growth // 2, k=3)
        b3 = conv(b, b2, growth // 2, growth // 2, k=3)
        features += [a2, b3]
        channels += growth
    y = b.node("Concat", features, axis=1)
    b.output(b.node("GlobalAveragePool", [conv(b, y, channels, 8, k=1)]))


# ---------------------------------------------------------------------------
# Inception block
# ---------------------------------------------------------------------------

def _inception(b, x, cin, widths):
    """One Inception module with the first layer of every branch stored first."""
    c1, r3, c3, r5, c5, cp = widths
    b1 = conv(b, x, cin, c1, k=1)
    t3 = conv(b, x, cin, r3, k=1)
    t5 = conv(b, x, cin, r5, k=1)
    tp = b.node("MaxPool", [x], kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1])
    b3 = conv(b, t3, r3, c3, k=3)
    b5 = conv(b, conv(b, t5, r5, r5, k=3, group=r5), r5, c5, k=3)  # a 5x5 as two 3x3
    bp = conv(b, tp, cin, cp, k=1)
    return b.node("Concat", [b1, b3, b5, bp], axis=1), c1 + c3 + c5 + cp


@hard_model("inception_stored_by_layer")
def _(b):
    """two Inception modules (branches 1x1 | 1x1-3x3 | 1x1-3x3-3x3 | pool-1x1 of unequal widths) stored layer by layer: every branch's first tensor live at once"""
    x = b.input([1, 3, 20, 20])
    h = conv(b, x, 3, 12, k=3)
    h, c = _inception(b, h, 12, (2, 24, 4, 16, 4, 2))
    h, c = _inception(b, h, c, (4, 20, 4, 12, 2, 2))
    b.output(b.node("GlobalAveragePool", [conv(b, h, c, 4, k=1, relu=False)]))


# ---------------------------------------------------------------------------
# Writing and checking
# ---------------------------------------------------------------------------

def generate_model(name, out_dir):
    """Same files as generate.generate_model, for a model of this script."""
    fn, opset = HARD[name]
    b = generate.Builder(name, opset)
    fn(b)
    m = b.build(fn.__doc__.strip())
    mdir = out_dir / name
    if mdir.exists():
        shutil.rmtree(mdir)
    ddir = mdir / "test_data_set_0"
    ddir.mkdir(parents=True)
    path = mdir / "model.onnx"
    onnx.save(m, str(path))
    dtypes = [generate.onnx_to_np(o.type.tensor_type.elem_type) for o in m.graph.output]
    outputs = generate.run_ort(path, b.feeds, dtypes)
    for vi, arr in zip(m.graph.output, outputs):
        generate.set_output_shape(vi, arr.shape)
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, str(path))
    generate.write_test_data(ddir, b.inputs, b.feeds, m.graph.output, outputs)
    ops = sorted({n.op_type for n in m.graph.node})
    return f"{name}\t{opset}\t{','.join(ops)}\t{m.doc_string}"


def check(compiler, out_dir, names):
    """Compile every model; the chosen order must beat the file order."""
    failed = []
    print("| model | statements | file order peak | RPO peak | chosen peak | lower bound | certified "
          "| exact search finished | chosen by |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        with tempfile.TemporaryDirectory(prefix="oc_hard_") as tmp:
            report = Path(tmp) / "report.json"
            proc = subprocess.run([compiler, str(out_dir / name / "model.onnx"), "-o", str(Path(tmp) / "out"),
                                   "--report", str(report)], capture_output=True, text=True)
            if proc.returncode != 0:
                print(f"| {name} | compile failed: {proc.stderr.strip()} |")
                failed.append(name)
                continue
            r = json.loads(report.read_text())
        base = r.get("baselines", {})
        file_peak, peak = base.get("file_order_peak_bytes"), r.get("peak_bytes")
        print(f"| {name} | {len(r.get('order', []))} | {file_peak} | {base.get('rpo_peak_bytes')} | {peak} | "
              f"{r.get('lower_bound_bytes')} | {r.get('certified_optimal')} | "
              f"{r.get('schedule', {}).get('exact_search_finished')} | {r.get('schedule', {}).get('chosen_by')} |")
        if file_peak is None or peak is None or not peak < file_peak:
            failed.append(name)
    if failed:
        sys.exit(f"error: the chosen order does not beat the file order on: {' '.join(failed)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="only these models (default: all, plus index.tsv)")
    ap.add_argument("--out", default=str(ROOT / "models" / "hard"), help="output directory (default: models/hard/)")
    ap.add_argument("--ort-dir", help="install onnxruntime-node here if needed and use it")
    ap.add_argument("--check", metavar="COMPILER", help="compile the models with this onnx-to-c and compare peaks")
    ap.add_argument("--list", action="store_true", help="list the model names and exit")
    args = ap.parse_args()
    if args.list:
        print("\n".join(sorted(HARD)))
        return
    unknown = [n for n in args.names if n not in HARD]
    if unknown:
        sys.exit(f"error: unknown model(s): {' '.join(unknown)}")
    out_dir = Path(args.out)
    names = sorted(args.names or HARD)
    if args.check and not args.ort_dir and not os.environ.get("ONNX_TO_C_ORT_DIR") \
            and all((out_dir / n / "model.onnx").exists() for n in names):
        check(args.check, out_dir, names)  # check the existing models only
        return
    generate.setup_ort(args.ort_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = [generate_model(n, out_dir) for n in names]
    for row in rows:
        print(row.split("\t")[0])
    if not args.names:
        for d in sorted(out_dir.iterdir()):
            if d.is_dir() and d.name not in HARD and (d / "model.onnx").exists():
                shutil.rmtree(d)
        header = "# name\topset\tops\tdescription (file order deliberately bad for memory)\n"
        (out_dir / "index.tsv").write_text(header + "\n".join(rows) + "\n")
        total = sum(p.stat().st_size for p in out_dir.rglob("*") if p.is_file())
        print(f"{len(rows)} models written to {out_dir} ({total} bytes)")
    if args.check:
        check(args.check, out_dir, names)


if __name__ == "__main__":
    main()
