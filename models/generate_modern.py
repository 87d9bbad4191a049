"""The test models of generate.py in the forms today's exporters write: a small CNN as PyTorch
2.x exports it (opset 18, IR 10, a symbolic batch dimension, the weights in model.onnx.data), the
Loop tf2onnx writes for an unfused Keras SimpleRNN, and single operators of opsets 18 to 24.

Debian's python3-onnx 1.12 knows opsets up to 17 and IR versions up to 8, so the models above
opset 17 are not built by Builder.build() (strict shape inference) nor passed to its checker:
write_model() below assembles them, has ONNX Runtime (which checks them with its own, newer ONNX)
compute the outputs and takes the output shapes from it. keras_rnn_loop (opset 13) goes through
generate.py's usual path, checker included.
"""
import copy
import shutil
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper
from generate_int4 import register_int4_models

PRODUCER = "onnx-to-c models/generate.py"
EXTERNAL_DATA = "model.onnx.data"  # what torch.onnx.export writes beside model.onnx


def _vi(name, elem_type, shape=None):
    """A value_info; shape None: none (filled in from ONNX Runtime's outputs); a string in it
    is a symbolic dimension (dim_param)."""
    return helper.make_tensor_value_info(name, elem_type, shape)


def _pinned(model, pins):
    """A copy of `model` whose symbolic dimensions in the graph's inputs and outputs are
    replaced by the values in `pins` (name -> int)."""
    m = copy.deepcopy(model)
    for vi in list(m.graph.input) + list(m.graph.output):
        for d in vi.type.tensor_type.shape.dim:
            if d.HasField("dim_param") and d.dim_param in pins:
                d.dim_value = pins[d.dim_param]  # clears dim_param (oneof)
    return m


def _save(model, path, external):
    if external:
        onnx.save_model(model, str(path), save_as_external_data=True, all_tensors_to_one_file=True,
                        location=EXTERNAL_DATA, size_threshold=0)
    else:
        onnx.save(model, str(path))


def _finish_output_shape(vi, shape, pins):
    """Give graph output `vi` ONNX Runtime's shape, or check the one the model declares
    (a symbolic dimension against its pinned value)."""
    t = vi.type.tensor_type
    if not t.HasField("shape"):
        t.shape.SetInParent()  # a scalar still gets an (empty) shape
        for d in shape:
            t.shape.dim.add().dim_value = d
        return
    declared = [pins[d.dim_param] if d.HasField("dim_param") else d.dim_value for d in t.shape.dim]
    if declared != list(shape):
        raise RuntimeError(f"output {vi.name}: ORT shape {list(shape)}, declared {declared}")


def _rnn_operands(b, units, steps, feat):
    """An RNN's sequence input x (1 x steps x feat) and its weights W (feat x units) and R
    (units x units), scaled like a Glorot initialization."""
    x = b.input([1, steps, feat], name="x")
    w = b.weight([feat, units], name="W", scale=1.0 / np.sqrt(feat))
    r = b.weight([units, units], name="R", scale=1.0 / np.sqrt(units))
    return x, w, r


def register_modern_models(model, Builder, run_ort, write_test_data):
    """Registers the models with generate.py's @model decorator; generate.py's Builder and
    run_ort build and run them, write_test_data writes their test data."""

    def write_model(name, out_dir, fn, opset, ir_version, external, pins):
        """generate.py's generate_model() for a model python-onnx 1.12 cannot build or check:
        same files, same index.tsv row."""
        b = Builder(name, opset)
        fn(b)
        doc = fn.__doc__.strip()
        graph = helper.make_graph(b.nodes, name, b.inputs, b.outputs, initializer=b.inits)
        m = helper.make_model(graph, producer_name=PRODUCER, doc_string=doc,
                              opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = ir_version

        dtypes = [np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[o.type.tensor_type.elem_type])
                  for o in m.graph.output]
        with tempfile.TemporaryDirectory(prefix="onnx2c_gen_") as tmp:
            # The reference comes from a copy of the model (the same computation) whose
            # symbolic dimensions are pinned to the test data's sizes, since scripts/ort_run.js
            # needs static input shapes, and whose weights stay inside model.onnx: ONNX Runtime
            # 1.30 refuses to load export_opset18_dynbatch_extdata as written, its shape
            # inference cannot read ReduceMean-18's constant axes from model.onnx.data
            # ("[ShapeInferenceError] Cannot parse data from external tensors").
            path = Path(tmp) / "model.onnx"
            _save(_pinned(m, pins), path, external=False)
            outputs = run_ort(path, b.feeds, dtypes)
        for vi, arr in zip(m.graph.output, outputs):
            _finish_output_shape(vi, arr.shape, pins)

        mdir = out_dir / name
        if mdir.exists():
            shutil.rmtree(mdir)
        ddir = mdir / "test_data_set_0"
        ddir.mkdir(parents=True)
        _save(m, mdir / "model.onnx", external)
        write_test_data(ddir, b.inputs, b.feeds, m.graph.output, outputs)

        ops = sorted({n.op_type for n in m.graph.node})
        return f"{name}\t{opset}\t{','.join(ops)}\t{doc}"

    def modern(name, opset, ir_version, external=False, pins=None):
        """@model for a model written by write_model(): IR version given, no python-onnx
        shape inference or checker; `external`: weights in model.onnx.data; `pins`: the
        sizes of the symbolic dimensions in the test data."""
        def register(fn):
            model(name, opset)(fn)
            fn.write_model = lambda name, out_dir: write_model(
                name, out_dir, fn, opset, ir_version, external, pins or {})
            return fn
        return register

    def out(b, name, elem_type=TP.FLOAT, shape=None):
        b.outputs.append(_vi(name, elem_type, shape))

    register_int4_models(modern, out)

    # -----------------------------------------------------------------------
    # Exporter-shaped models
    # -----------------------------------------------------------------------

    @modern("export_opset18_dynbatch_extdata", opset=18, ir_version=10, external=True, pins={"batch": 1})
    def _(b):
        """PyTorch 2.x export (IR 10): symbolic batch, weights in model.onnx.data; Conv+Relu, ReduceMean-18 with axes input, Split-18 num_outputs (5 into 3+2), Concat, Flatten, Gemm"""
        x = b.input([1, 3, 8, 8], name="input")
        b.inputs[0] = _vi("input", TP.FLOAT, ["batch", 3, 8, 8])
        h = b.node("Conv", [x, b.weight([5, 3, 3, 3], name="conv.weight"), b.bias(5, name="conv.bias")],
                   outputs=["/conv/Conv_output_0"], name="/conv/Conv", dilations=[1, 1], group=1,
                   kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1])
        h = b.node("Relu", [h], outputs=["/relu/Relu_output_0"], name="/relu/Relu")
        m = b.node("ReduceMean", [h, b.const([2, 3], name="/ReduceMean_axes")],
                   outputs=["/ReduceMean_output_0"], name="/ReduceMean", keepdims=1)
        s0, s1 = b.node("Split", [m], outputs=["/Split_output_0", "/Split_output_1"], name="/Split",
                        axis=1, num_outputs=2)
        c = b.node("Concat", [s1, s0], outputs=["/Concat_output_0"], name="/Concat", axis=1)
        f = b.node("Flatten", [c], outputs=["/Flatten_output_0"], name="/Flatten", axis=1)
        b.node("Gemm", [f, b.weight([4, 5], name="fc.weight"), b.bias(4, name="fc.bias")],
               outputs=["output"], name="/fc/Gemm", alpha=1.0, beta=1.0, transB=1)
        out(b, "output", shape=["batch", 4])

    @model("keras_rnn_loop", opset=13)
    def _(b):
        """tf2onnx's unfused Keras SimpleRNN: Loop (constant trip count 4, constant true cond) carrying h (1x8) with a scan output; the body Gathers step iter_num of the outer x and computes Tanh(MatMul(x_t,W)+MatMul(h,R)+b) with outer-scope weights"""
        units, steps, feat = 8, 4, 3
        x, w, r = _rnn_operands(b, units, steps, feat)
        bias = b.bias(units, name="b")
        trip = b.const(np.array(steps, np.int64), name="trip_count")
        cond = b.const(np.array(True), name="cond_true")
        h0 = b.const(np.zeros([1, units], np.float32), name="h0")
        body = helper.make_graph(
            [helper.make_node("Gather", [x, "iter_num"], ["x_t"], name="body/Gather", axis=1),
             helper.make_node("MatMul", ["x_t", w], ["xw"], name="body/MatMul"),
             helper.make_node("MatMul", ["h_in", r], ["hr"], name="body/MatMul_1"),
             helper.make_node("Add", ["xw", "hr"], ["sum"], name="body/Add"),
             helper.make_node("Add", ["sum", bias], ["pre"], name="body/Add_1"),
             helper.make_node("Tanh", ["pre"], ["h_out"], name="body/Tanh"),
             helper.make_node("Identity", ["cond_in"], ["cond_out"], name="body/Identity"),
             helper.make_node("Identity", ["h_out"], ["h_scan"], name="body/Identity_1")],
            "rnn_body",
            [_vi("iter_num", TP.INT64, []), _vi("cond_in", TP.BOOL, []), _vi("h_in", TP.FLOAT, [1, units])],
            [_vi("cond_out", TP.BOOL, []), _vi("h_out", TP.FLOAT, [1, units]),
             _vi("h_scan", TP.FLOAT, [1, units])])
        h, seq = b.node("Loop", [trip, cond, h0], outputs=["h_final", "h_seq"], name="rnn/while_loop",
                        body=body)
        b.output(h, seq)

    @model("scan_rnn_reverse", opset=16)
    def _(b):
        """Scan-16 over x (1x5x3, scan axis 1, read backwards) carrying h (1x4): h = Tanh(MatMul(x_t,W)+MatMul(h,R)); the per-step h stacked on output axis 1"""
        units, steps, feat = 4, 5, 3
        x, w, r = _rnn_operands(b, units, steps, feat)
        h0 = b.const(np.zeros([1, units], np.float32), name="h0")
        body = helper.make_graph(
            [helper.make_node("MatMul", ["x_t", w], ["xw"], name="body/MatMul"),
             helper.make_node("MatMul", ["h_in", r], ["hr"], name="body/MatMul_1"),
             helper.make_node("Add", ["xw", "hr"], ["pre"], name="body/Add"),
             helper.make_node("Tanh", ["pre"], ["h_out"], name="body/Tanh"),
             helper.make_node("Identity", ["h_out"], ["h_scan"], name="body/Identity")],
            "scan_body",
            [_vi("h_in", TP.FLOAT, [1, units]), _vi("x_t", TP.FLOAT, [1, feat])],
            [_vi("h_out", TP.FLOAT, [1, units]), _vi("h_scan", TP.FLOAT, [1, units])])
        h, seq = b.node("Scan", [h0, x], outputs=["h_final", "h_seq"], name="rnn/scan", body=body,
                        num_scan_inputs=1, scan_input_axes=[1], scan_input_directions=[1],
                        scan_output_axes=[1])
        b.output(h, seq)

    # -----------------------------------------------------------------------
    # Single operators of opsets 18 to 24
    # -----------------------------------------------------------------------

    @modern("mish_opset18", opset=18, ir_version=8)
    def _(b):
        """Mish-18 (x * tanh(softplus(x)))"""
        out(b, b.node("Mish", [b.input([2, 3, 5], scale=3.0)]))

    @modern("bitwise_and_opset18", opset=18, ir_version=8)
    def _(b):
        """BitwiseAnd-18 on int32 (negative values too), (3,4) & (4) broadcast"""
        a = b.input([3, 4], data=b.rng.integers(-1000, 1000, size=[3, 4]), dtype=np.int32)
        c = b.input([4], data=b.rng.integers(-1000, 1000, size=[4]), dtype=np.int32)
        out(b, b.node("BitwiseAnd", [a, c]), TP.INT32)

    @modern("bitwise_not_opset18", opset=18, ir_version=8)
    def _(b):
        """BitwiseNot-18 on uint8"""
        x = b.input([2, 8], data=b.rng.integers(0, 256, size=[2, 8]), dtype=np.uint8)
        out(b, b.node("BitwiseNot", [x]), TP.UINT8)

    @modern("reduce_l2_axes_input_opset18", opset=18, ir_version=8)
    def _(b):
        """ReduceL2-18 with axes [0,-1] as a constant input, keepdims 1"""
        out(b, b.node("ReduceL2", [b.input([2, 3, 4]), b.const([0, -1])], keepdims=1))

    @modern("pad_axes_opset18", opset=18, ir_version=8)
    def _(b):
        """Pad-18 constant mode with the axes input [2,3], constant pads [1,0,2,1] and constant_value 0.5"""
        out(b, b.node("Pad", [b.input([1, 2, 4, 5]), b.const([1, 0, 2, 1]), b.const(np.float32(0.5)),
                              b.const([2, 3])], mode="constant"))

    @modern("center_crop_pad_opset18", opset=18, ir_version=8)
    def _(b):
        """CenterCropPad-18 on HWC, axes [0,1], constant shape [4,7]: crops H 7->4, pads W 4->7"""
        out(b, b.node("CenterCropPad", [b.input([7, 4, 3]), b.const([4, 7])], axes=[0, 1]))

    @modern("lppool_opset18", opset=18, ir_version=8)
    def _(b):
        """LpPool-18 p=2, 3x3 kernel, strides 2, pads 1"""
        out(b, b.node("LpPool", [b.input([1, 2, 7, 7])], p=2, kernel_shape=[3, 3], strides=[2, 2],
                      pads=[1, 1, 1, 1]))

    @modern("gelu_tanh_opset20", opset=20, ir_version=9)
    def _(b):
        """Gelu-20 approximate=tanh"""
        out(b, b.node("Gelu", [b.input([2, 6], scale=2.0)], approximate="tanh"))

    @modern("group_norm_opset21", opset=21, ir_version=10)
    def _(b):
        """GroupNormalization-21: 4 channels in 2 groups, scale and bias per channel"""
        x = b.input([2, 4, 3, 3], scale=2.0)
        out(b, b.node("GroupNormalization", [x, b.uniform([4], 0.5, 1.5), b.bias(4)], num_groups=2,
                      epsilon=1e-5))

    @modern("rms_norm_opset23", opset=23, ir_version=11)
    def _(b):
        """RMSNormalization-23 over the last axis, scale per feature"""
        out(b, b.node("RMSNormalization", [b.input([2, 3, 8]), b.uniform([8], 0.5, 1.5)], axis=-1,
                      epsilon=1e-5))

    @modern("attention_gqa_causal_opset23", opset=23, ir_version=11)
    def _(b):
        """Attention-23 4-D, 4 query heads sharing 2 key/value heads, is_causal, default scale"""
        q = b.input([1, 4, 5, 8], name="Q")
        k = b.input([1, 2, 5, 8], name="K")
        v = b.input([1, 2, 5, 6], name="V")
        out(b, b.node("Attention", [q, k, v], is_causal=1))

    @modern("attention_3d_mask_opset23", opset=23, ir_version=11)
    def _(b):
        """Attention-23 3-D (2 heads of 4), a bool attn_mask (batch, 1, q, kv), scale 0.3, softcap 2"""
        q = b.input([2, 3, 8], name="Q")
        k = b.input([2, 6, 8], name="K")
        v = b.input([2, 6, 8], name="V")
        keep = b.rng.random([2, 1, 3, 6]) < 0.7
        keep[..., 0] = True  # every query sees at least one key
        mask = b.input([2, 1, 3, 6], name="mask", data=keep, dtype=np.bool_)
        out(b, b.node("Attention", [q, k, v, mask], q_num_heads=2, kv_num_heads=2, scale=0.3, softcap=2.0))

    @modern("rotary_embedding_opset23", opset=23, ir_version=11)
    def _(b):
        """RotaryEmbedding-23 4-D (1x2x4x8), rotary_embedding_dim 6 (2 features pass through), caches gathered by constant position_ids [3,4,5,6]"""
        angles = np.arange(16)[:, None] / (100.0 ** (np.arange(3)[None, :] / 3))
        x = b.input([1, 2, 4, 8], name="X")
        cos = b.const(np.cos(angles).astype(np.float32), name="cos_cache")
        sin = b.const(np.sin(angles).astype(np.float32), name="sin_cache")
        pos = b.const(np.array([[3, 4, 5, 6]], np.int64), name="position_ids")
        out(b, b.node("RotaryEmbedding", [x, cos, sin, pos], rotary_embedding_dim=6))

    @modern("rotary_interleaved_3d_opset23", opset=23, ir_version=11)
    def _(b):
        """RotaryEmbedding-23 3-D (1x3x12, 3 heads of 4), interleaved pairs, caches (1x3x2) given at run time"""
        x = b.input([1, 3, 12], name="X")
        cos = b.input([1, 3, 2], name="cos_cache", low=-1.0, high=1.0, dist="uniform")
        sin = b.input([1, 3, 2], name="sin_cache", low=-1.0, high=1.0, dist="uniform")
        out(b, b.node("RotaryEmbedding", [x, cos, sin], interleaved=1, num_heads=3))

    @modern("swish_opset24", opset=24, ir_version=11)
    def _(b):
        """Swish-24 alpha 0.5 (x * sigmoid(0.5 x))"""
        out(b, b.node("Swish", [b.input([2, 3, 4], scale=3.0)], alpha=0.5))

    @modern("split_num_outputs_opset18", opset=18, ir_version=8)
    def _(b):
        """Split-18 num_outputs 3 of 7 channels (3+3+1)"""
        y = b.node("Split", [b.input([2, 7, 3])], outputs=3, axis=1, num_outputs=3)
        for name in y:
            out(b, name)
