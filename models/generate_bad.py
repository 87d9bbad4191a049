#!/usr/bin/python3
"""Generate the hostile-model corpus: models/bad/*.onnx and models/bad/cases.tsv.

    /usr/bin/python3 models/generate_bad.py [--out DIR]    (default: models/)

models/generate.py also calls this when it regenerates everything. Each case is a
model onnx-to-c must refuse with exit code 1, a single `error:` line that names the
problem (and the node, when one is involved) and nothing in the output directory;
tests/e2e/run_bad_models.py checks them. Everything is deterministic.
"""
import argparse
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

PRODUCER = "onnx-to-c models/generate.py"
IR_FOR_OPSET13 = 7  # ONNX 1.8, the first release with opset 13

# (ModelProto field numbers, for writing nested messages by hand)
MODEL_GRAPH, GRAPH_NODE, NODE_ATTRIBUTE, ATTRIBUTE_G = 7, 1, 5, 6


def _vi(name, elem_type=TP.FLOAT, shape=(1, 4)):
    return helper.make_tensor_value_info(name, elem_type, None if shape is None else list(shape))


def _model_proto(nodes, inputs, outputs, inits=(), value_info=(), opset=13, extra_opsets=()):
    g = helper.make_graph(nodes, "bad", inputs, outputs, initializer=list(inits), value_info=list(value_info))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    m = helper.make_model(g, producer_name=PRODUCER, opset_imports=opsets)
    m.ir_version = IR_FOR_OPSET13
    return m


def _model(*args, **kwargs):
    return _model_proto(*args, **kwargs).SerializeToString()


def _relu_model(in_shape, elem_type=TP.FLOAT, out_shape=None):
    return _model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                  [helper.make_tensor_value_info("x", elem_type, in_shape)],
                  [helper.make_tensor_value_info("y", elem_type, out_shape or in_shape)])


def _one_node(op, inputs, in_shapes, out_shape, inits=(), name="n", **attrs):
    """A single node `name` of type `op` on float graph inputs x0, x1, ... and initializers.
    None dims in out_shape leave them to inference (so that onnx-to-c's own checks, not a
    disagreement with a declared shape, meet the bad attribute)."""
    graph_inputs = [_vi(f"x{i}", shape=s) for i, s in enumerate(in_shapes)]
    return _model([helper.make_node(op, inputs, ["y"], name=name, **attrs)], graph_inputs,
                  [_vi("y", shape=out_shape)], inits)


def _raw_tensor(name, elem_type, dims, raw):
    """A TensorProto with raw_data taken as is (helper.make_tensor would check its size)."""
    t = TP(name=name, data_type=elem_type, dims=dims)
    t.raw_data = raw
    return t


def _external_tensor(name, location):
    t = TP(name=name, data_type=TP.FLOAT, dims=[4])
    t.data_location = TP.EXTERNAL
    for key, value in (("location", location), ("offset", "0"), ("length", "16")):
        entry = t.external_data.add()
        entry.key, entry.value = key, value
    return t


def _external_model(location):
    return _model([helper.make_node("Add", ["x", "w_ext"], ["y"], name="add")],
                  [_vi("x")], [_vi("y")], [_external_tensor("w_ext", location)])


def _i64(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def _good_conv_model():
    rng = np.random.default_rng(7)
    w = numpy_helper.from_array(rng.standard_normal([4, 3, 3, 3]).astype(np.float32), "conv.weight")
    return _model([helper.make_node("Conv", ["x", "conv.weight"], ["y"], name="conv", pads=[1, 1, 1, 1])],
                  [_vi("x", shape=[1, 3, 8, 8])], [_vi("y", shape=[1, 4, 8, 8])], [w])


def _conv(name, x_shape, w_shape, out_shape, **attrs):
    w = numpy_helper.from_array(np.ones(w_shape, np.float32), f"{name}.weight")
    return _one_node("Conv", ["x0", w.name], [x_shape], out_shape, [w], name=name, **attrs)


def _field_header(field, length):
    """Tag and length of a protobuf length-delimited field (wire type 2)."""
    out = bytearray([(field << 3) | 2])
    while True:
        out.append((length & 0x7F) | (0x80 if length > 0x7F else 0))
        length >>= 7
        if not length:
            return bytes(out)


def _deeply_nested(levels):
    """A ModelProto whose graph holds a node whose attribute holds a graph ... `levels` deep:
    a naive recursive parser runs out of stack. Built from the inside out in linear time."""
    headers, size = [], 0
    fields = [ATTRIBUTE_G, NODE_ATTRIBUTE, GRAPH_NODE] * levels + [MODEL_GRAPH]
    for field in fields:
        header = _field_header(field, size)
        headers.append(header)
        size += len(header)
    return b"".join(reversed(headers))


def _with_raw_name(model, placeholder, raw):
    """Serialized `model` with the name `placeholder` replaced by raw bytes of the same
    length (protobuf's Python API refuses strings that are not UTF-8)."""
    data = model.SerializeToString()
    assert len(placeholder) == len(raw) and data.count(placeholder) >= 1
    return data.replace(placeholder, raw)


# Options added to the command line of some cases (file name -> arguments).
EXTRA_ARGS = {"arena_too_large.onnx": "--max-arena=512",
              "quantized_io_second_reader.onnx": "--quantized-io"}


def _loop_model(trip_count, runtime_trip=False):
    """x -> Loop(trip_count, no condition) whose body passes x through a Relu -> y."""
    vi = helper.make_tensor_value_info
    body = helper.make_graph(
        [helper.make_node("Identity", ["c_in"], ["c_out"], name="cond"),
         helper.make_node("Relu", ["v_in"], ["v_out"], name="step")], "body",
        [vi("i", TP.INT64, []), vi("c_in", TP.BOOL, []), vi("v_in", TP.FLOAT, [2])],
        [vi("c_out", TP.BOOL, []), vi("v_out", TP.FLOAT, [2])])
    inputs = [_vi("x", shape=[2])]
    inits = []
    if runtime_trip:
        inputs.append(vi("M", TP.INT64, []))
    else:
        inits.append(numpy_helper.from_array(np.array(trip_count, np.int64), "M"))
    return _model([helper.make_node("Loop", ["M", "", "x"], ["y"], name="loop", body=body)], inputs,
                  [_vi("y", shape=[2])], inits)


def _loop_data_condition_model():
    """x -> Loop(M = 5) whose body's condition is ReduceSum(Relu(v)) > 0: data-dependent."""
    vi = helper.make_tensor_value_info
    zero = numpy_helper.from_array(np.array(0.0, np.float32), "zero")
    body = helper.make_graph(
        [helper.make_node("Relu", ["v_in"], ["v_out"], name="step"),
         helper.make_node("ReduceSum", ["v_out"], ["s"], name="sum", keepdims=0),
         helper.make_node("Greater", ["s", "zero"], ["c_out"], name="cond")], "body",
        [vi("i", TP.INT64, []), vi("c_in", TP.BOOL, []), vi("v_in", TP.FLOAT, [2])],
        [vi("c_out", TP.BOOL, []), vi("v_out", TP.FLOAT, [2])], initializer=[zero])
    inits = [numpy_helper.from_array(np.array(5, np.int64), "M")]
    return _model([helper.make_node("Loop", ["M", "", "x"], ["y"], name="loop", body=body)],
                  [_vi("x", shape=[2])], [_vi("y", shape=[2])], inits)


def _quantized_io_second_reader():
    """x -> QuantizeLinear -> DequantizeLinear -> y, and x -> Relu -> z."""
    q = [numpy_helper.from_array(np.array(0.5, np.float32), "s"),
         numpy_helper.from_array(np.array(0, np.int8), "zp")]
    return _model([helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["q"], name="quant"),
                   helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["y"], name="dequant"),
                   helper.make_node("Relu", ["x"], ["z"], name="side_relu")],
                  [_vi("x")], [_vi("y"), _vi("z")], q)


def bad_cases():
    """(file name, bytes or None for 'do not create', exit code, problem substring,
    node name or '-', comment)"""
    good = _good_conv_model()
    rnd = np.random.default_rng(1234).integers(0, 256, 512, dtype=np.uint8).tobytes()
    f32 = lambda shape: numpy_helper.from_array(np.ones(shape, np.float32), "w")  # noqa: E731
    cases = [
        # --- files that are not ONNX models
        ("truncated.onnx", good[:len(good) // 2], 1, "parse", "-",
         "valid model cut in the middle of the weights: protobuf parse error"),
        ("truncated_header.onnx", good[:3], 1, "parse", "-", "the first 3 bytes of a valid model"),
        ("random_bytes.onnx", rnd, 1, "parse", "-", "512 random bytes: protobuf parse error"),
        ("empty.onnx", b"", 1, "empty", "-", "zero-byte file"),
        ("does_not_exist.onnx", None, 1, "does_not_exist.onnx", "-", "missing input file: error names the path"),
        ("deeply_nested.onnx", _deeply_nested(10000), 1, "nested", "-",
         "graph in attribute in node in graph ... 10000 levels deep (would exhaust a recursive parser)"),
        ("no_graph.onnx", onnx.ModelProto(ir_version=8, opset_import=[helper.make_opsetid("", 13)]).SerializeToString(),
         1, "graph", "-", "ModelProto without a graph"),
        # --- graph structure
        ("cycle.onnx", _model([helper.make_node("Add", ["x", "b"], ["a"], name="add"),
                               helper.make_node("Relu", ["a"], ["b"], name="relu"),
                               helper.make_node("Sigmoid", ["a"], ["y"], name="sig")],
                              [_vi("x")], [_vi("y")]), 1, "cycle", "add",
         "Add and Relu feed each other (also not topologically sorted; say 'cycle')"),
        ("self_loop.onnx", _model([helper.make_node("Add", ["x", "y"], ["y"], name="self_add")],
                                  [_vi("x")], [_vi("y")]), 1, "cycle", "self_add",
         "a node that consumes its own output"),
        ("duplicate_output_name.onnx",
         _model([helper.make_node("Relu", ["x"], ["dup_out"], name="first"),
                 helper.make_node("Sigmoid", ["x"], ["dup_out"], name="second")],
                [_vi("x")], [_vi("dup_out")]), 1, "dup_out", "-", "two nodes write the same tensor"),
        ("duplicate_initializer.onnx",
         _model([helper.make_node("Add", ["x", "w"], ["y"], name="add")], [_vi("x", shape=[4])],
                [_vi("y", shape=[4])], [f32([4]), f32([4])]), 1, "not unique", "-", "two initializers named w"),
        ("dangling_input.onnx", _model([helper.make_node("Add", ["x", "ghost_tensor"], ["y"], name="add")],
                                       [_vi("x")], [_vi("y")]), 1, "ghost_tensor", "add",
         "node input produced by nothing and declared nowhere"),
        ("missing_initializer.onnx",
         _model([helper.make_node("Conv", ["x", "conv1.weight"], ["y"], name="conv1", kernel_shape=[3, 3])],
                [_vi("x", shape=[1, 3, 8, 8])], [_vi("y", shape=[1, 4, 6, 6])],
                value_info=[_vi("conv1.weight", shape=[4, 3, 3, 3])]), 1, "conv1.weight", "conv1",
         "Conv weight declared in value_info but no initializer holds it"),
        ("missing_output.onnx", _model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                                       [_vi("x")], [_vi("nowhere_output")]), 1, "nowhere_output", "-",
         "graph output that no node produces"),
        ("no_outputs.onnx", _model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [_vi("x")], []),
         1, "no outputs", "-", "a graph without outputs"),
        ("input_without_shape.onnx", _model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                                            [helper.make_tensor_value_info("x", TP.FLOAT, None)], [_vi("y")]),
         1, "'shape'", "-", "graph input of unknown rank"),
        ("sequence_input.onnx",
         _model([helper.make_node("SequenceLength", ["s"], ["y"], name="len")],
                [helper.make_tensor_sequence_value_info("s", TP.FLOAT, [2])],
                [helper.make_tensor_value_info("y", TP.INT64, [])]), 1, "not a tensor", "-",
         "graph input that is a sequence"),
        # --- control flow
        ("loop_runtime_trip_count.onnx", _loop_model(0, runtime_trip=True), 1, "trip count", "loop",
         "Loop whose trip count is a graph input"),
        ("loop_data_condition.onnx", _loop_data_condition_model(), 1,
         "condition 'c_out' after iteration 0 is computed at run time from graph input 'x'", "loop",
         "Loop whose body's condition depends on the data (the error names the graph input)"),
        ("loop_too_long.onnx", _loop_model(10 ** 12), 1, "more than 100000", "loop",
         "Loop with a constant trip count of 10^12: unrolling is bounded"),
        # --- dims
        # (a symbolic leading dim is the batch, set to 1 with a note: these are not)
        ("dynamic_dim.onnx", _relu_model([1, "seq"]), 1, "dynamic", "-",
         "symbolic dim_param 'seq' (not the leading one) on the graph input"),
        ("unknown_dim.onnx", _relu_model([1, None]), 1, "unknown dimension", "-",
         "graph input dim (not the leading one) with neither value nor param"),
        ("negative_dim.onnx", _relu_model([1, -3, 4]), 1, "negative", "-", "graph input with dim -3"),
        ("overflow_elements.onnx", _relu_model([1 << 40, 1 << 40]), 1, "overflow", "-",
         "element count 2^80 overflows int64"),
        ("overflow_bytes.onnx", _relu_model([1 << 31, 1 << 31]), 1, "overflow", "-",
         "2^62 float32 elements: byte size 2^64 overflows int64"),
        ("overflow_many_dims.onnx", _relu_model([65536] * 8), 1, "overflow", "-",
         "eight dims of 2^16: the product wraps to 0 in 64 bits"),
        ("reshape_overflow.onnx",
         _one_node("Reshape", ["x0", "shape"], [[1, 4]], [None, None], [_i64("shape", [1 << 40, 1 << 40])],
                   name="reshape"), 1, "2^31", "reshape", "Reshape to [2^40, 2^40]"),
        ("expand_overflow.onnx",
         _one_node("Expand", ["x0", "shape"], [[1, 4]], [None, None, None], [_i64("shape", [1 << 30, 1 << 30, 4])],
                   name="expand"), 1, "2 GiB", "expand", "Expand to 2^62 elements"),
        ("constant_of_shape_bomb.onnx",
         _model([helper.make_node("ConstantOfShape", ["shape"], ["big"], name="bomb",
                                  value=numpy_helper.from_array(np.ones([1], np.float32))),
                 helper.make_node("Add", ["x", "big"], ["y"], name="add")],
                [_vi("x", shape=[1])], [_vi("y", shape=[None])], [_i64("shape", [(1 << 26) + 1])]),
         1, "MiB", "bomb", "a 64-byte model folding into a 256 MiB constant"),
        ("initializer_negative_dim.onnx",
         _model([helper.make_node("Add", ["x", "neg_w"], ["y"], name="add")], [_vi("x")], [_vi("y")],
                [_raw_tensor("neg_w", TP.FLOAT, [-4], b"")]), 1, "neg_w", "-", "initializer with dims [-4]"),
        # --- initializer data
        ("raw_data_mismatch.onnx",
         _model([helper.make_node("Add", ["x", "bad_weight"], ["y"], name="add")],
                [_vi("x", shape=[4, 4])], [_vi("y", shape=[4, 4])],
                [_raw_tensor("bad_weight", TP.FLOAT, [4, 4], b"\0" * 40)]), 1, "bad_weight", "-",
         "initializer dims 4x4 float (64 bytes) but raw_data has 40 bytes"),
        ("raw_data_too_long.onnx",
         _model([helper.make_node("Add", ["x", "long_w"], ["y"], name="add")], [_vi("x")], [_vi("y")],
                [_raw_tensor("long_w", TP.FLOAT, [4], b"\0" * 20)]), 1, "long_w", "-",
         "initializer dims [4] float (16 bytes) but raw_data has 20 bytes"),
        ("float_data_mismatch.onnx",
         _model([helper.make_node("Add", ["x", "short_w"], ["y"], name="add")], [_vi("x")], [_vi("y")],
                [TP(name="short_w", data_type=TP.FLOAT, dims=[4], float_data=[1.0, 2.0, 3.0])]),
         1, "short_w", "-", "initializer dims [4] with 3 float_data values"),
        ("huge_initializer_claim.onnx",
         _model([helper.make_node("Add", ["x", "huge_w"], ["y"], name="add")], [_vi("x")], [_vi("y")],
                [_raw_tensor("huge_w", TP.FLOAT, [1 << 28], b"\0" * 16)]), 1, "huge_w", "-",
         "initializer claims 2^28 floats (1 GiB) with 16 bytes of data: refused before allocating"),
        ("complex_initializer.onnx",
         _model([helper.make_node("Identity", ["c"], ["y"], name="id")], [],
                [helper.make_tensor_value_info("y", TP.COMPLEX64, [2])],
                [_raw_tensor("c", TP.COMPLEX64, [2], b"\0" * 16)]), 1, "COMPLEX64", "-",
         "initializer of an unsupported element type"),
        ("string_input.onnx", _relu_model([1, 4], elem_type=TP.STRING), 1, "string", "-",
         "graph input of dtype STRING"),
        # --- external data: never read outside the model's folder, nor from a missing file
        ("external_data_outside.onnx", _external_model("../../../../etc/passwd"), 1, "external data", "-",
         "initializer stored in '../../../../etc/passwd'"),
        ("external_data_absolute.onnx", _external_model("/etc/passwd"), 1, "external data", "-",
         "initializer stored in an absolute path"),
        ("external_data_inside.onnx", _external_model("weights.bin"), 1, "external data", "-",
         "initializer stored next to the model in a file that is not there"),
        ("external_data_constant.onnx",
         _model([helper.make_node("Constant", [], ["c"], name="const_ext",
                                  value=_external_tensor("v", "../secret.bin")),
                 helper.make_node("Add", ["x", "c"], ["y"], name="add")], [_vi("x")], [_vi("y")]),
         1, "external data", "const_ext", "Constant node whose tensor attribute points outside"),
        # --- attributes
        ("conv_negative_stride.onnx", _conv("conv_neg", [1, 3, 8, 8], [4, 3, 3, 3], [1, 4, 6, 6], strides=[-1, -1]),
         1, "stride", "conv_neg", "Conv strides [-1, -1]"),
        ("conv_zero_stride.onnx", _conv("conv_zero", [1, 3, 8, 8], [4, 3, 3, 3], [1, 4, 6, 6], strides=[0, 1]),
         1, "stride", "conv_zero", "Conv strides [0, 1]"),
        ("conv_negative_pads.onnx",
         _conv("conv_pads", [1, 3, 8, 8], [4, 3, 3, 3], [1, 4, 6, 6], pads=[-5, 0, 0, 0]),
         1, "pad", "conv_pads", "Conv pads [-5, 0, 0, 0]"),
        ("conv_kernel_larger_than_input.onnx",
         _conv("conv_big", [1, 3, 4, 4], [4, 3, 7, 7], [1, 4, None, None]), 1, "larger", "conv_big",
         "a 7x7 kernel on a 4x4 input without padding"),
        ("conv_channel_mismatch.onnx", _conv("conv_ch", [1, 3, 8, 8], [4, 5, 3, 3], [1, 4, 6, 6]),
         1, "conv_ch", "conv_ch", "weight for 5 input channels on a 3-channel input"),
        ("conv_kernel_shape_float.onnx",
         _conv("conv_kf", [1, 3, 8, 8], [4, 3, 3, 3], [1, 4, 6, 6], kernel_shape=[3.0, 3.0]),
         1, "kernel_shape", "conv_kf", "kernel_shape given as floats"),
        ("maxpool_pads_exceed_kernel.onnx",
         _one_node("MaxPool", ["x0"], [[1, 1, 4, 4]], [1, 1, 24, 24], name="pool_pad",
                   kernel_shape=[2, 2], pads=[10, 10, 10, 10]), 1, "pad", "pool_pad",
         "MaxPool pads of 10 around a 4x4 input with a 2x2 kernel"),
        ("maxpool_zero_kernel.onnx",
         _one_node("MaxPool", ["x0"], [[1, 1, 4, 4]], [1, 1, 4, 4], name="pool_k0", kernel_shape=[0, 2]),
         1, "kernel", "pool_k0", "MaxPool kernel_shape [0, 2]"),
        ("gather_axis_out_of_range.onnx",
         _one_node("Gather", ["x0", "idx"], [[2, 3]], [2], [_i64("idx", [0])], name="gather_ax", axis=5),
         1, "axis", "gather_ax", "Gather axis 5 on a rank-2 input"),
        ("gather_index_out_of_range.onnx",
         _model([helper.make_node("Gather", ["w", "idx"], ["g"], name="gather_idx"),
                 helper.make_node("Add", ["x", "g"], ["y"], name="add")], [_vi("x", shape=[1])],
                [_vi("y", shape=[1])], [f32([3]), _i64("idx", [7])]), 1, "gather_idx", "gather_idx",
         "constant Gather index 7 into 3 elements"),
        ("concat_axis_out_of_range.onnx",
         _one_node("Concat", ["x0", "x1"], [[2, 3], [2, 3]], [4, 3], name="cat_ax", axis=-3),
         1, "axis", "cat_ax", "Concat axis -3 on rank-2 inputs"),
        ("transpose_bad_perm.onnx",
         _one_node("Transpose", ["x0"], [[2, 3]], [2, 3], name="perm_dup", perm=[0, 0]),
         1, "perm", "perm_dup", "Transpose perm [0, 0]"),
        ("slice_zero_step.onnx",
         _one_node("Slice", ["x0", "s", "e", "a", "st"], [[4, 4]], [4, 4],
                   [_i64("s", [0]), _i64("e", [4]), _i64("a", [0]), _i64("st", [0])], name="slice_step"),
         1, "step", "slice_step", "Slice with step 0"),
        ("matmul_shape_mismatch.onnx",
         _one_node("MatMul", ["x0", "x1"], [[2, 3], [4, 5]], [2, 5], name="mm"), 1, "mm", "mm",
         "MatMul of [2, 3] by [4, 5]"),
        ("split_sizes_mismatch.onnx",
         _model([helper.make_node("Split", ["x", "sizes"], ["y", "z"], name="split_bad", axis=1)],
                [_vi("x", shape=[2, 6])], [_vi("y", shape=[2, 2]), _vi("z", shape=[2, 2])],
                [_i64("sizes", [2, 2])]), 1, "split_bad", "split_bad", "split sizes 2+2 of a dimension of 6"),
        # --- ops, domains and versions
        ("unsupported_op.onnx", _model([helper.make_node("FooBar", ["x"], ["y"], name="foo")],
                                       [_vi("x")], [_vi("y")]), 1, "FooBar", "foo", "unknown op in the default domain"),
        ("unknown_domain.onnx",
         _model([helper.make_node("Relu", ["x"], ["y"], name="custom_relu", domain="com.example.custom")],
                [_vi("x")], [_vi("y")], extra_opsets=[("com.example.custom", 1)]), 1, "com.example.custom",
         "custom_relu", "op in an unknown domain (imported by the model, so the ONNX checker accepts it)"),
        ("domain_not_imported.onnx",
         _model([helper.make_node("Relu", ["x"], ["y"], name="stray", domain="com.example.stray")],
                [_vi("x")], [_vi("y")]), 1, "com.example.stray", "-", "op in a domain the model does not import"),
        ("opset_too_new.onnx", _model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                                      [_vi("x")], [_vi("y")], opset=99), 1, "opset 99", "-", "default opset 99"),
        ("opset_zero.onnx", _model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                                   [_vi("x")], [_vi("y")], opset=0), 1, "opset 0", "-", "default opset 0"),
        ("no_default_opset.onnx",
         _model_proto([helper.make_node("Relu", ["x"], ["y"], name="custom", domain="com.example")],
                      [_vi("x")], [_vi("y")], extra_opsets=[("com.example", 1)]), 1, "opset", "-",
         "a model importing only a custom domain"),
        ("ir_version_too_new.onnx", None, 1, "ir_version", "-", "IR version 99"),
        ("unsupported_control_flow.onnx", None, 1, "If", "branch", "an If node (control flow is not supported)"),
        ("hostile_name_in_error.onnx", None, 1, "FooBar", "-",
         "unsupported op in a node whose name has an escape sequence and invalid UTF-8: the error "
         "line stays one printable line"),
        ("long_name_unknown_op.onnx",
         _model([helper.make_node("FooBar", ["x"], ["y"], name="n" * 100000)], [_vi("x")], [_vi("y")]),
         1, "FooBar", "-", "a 100,000-character node name in the ONNX checker's message (crashed "
         "the regex that finds the node in it)"),
        ("long_name_shape_mismatch.onnx",
         _model([helper.make_node("Relu", ["x"], ["y"], name="r" * 100000)], [_vi("x")],
                [_vi("y", shape=[1, 5])]), 1, "shape", "-",
         "a 100,000-character node name in a shape inference message"),
        # --- limits given on the command line (EXTRA_ARGS below)
        ("arena_too_large.onnx",
         _model([helper.make_node("Relu", ["x"], ["a"], name="relu"),
                 helper.make_node("Sigmoid", ["a"], ["b"], name="sigmoid"),
                 helper.make_node("Tanh", ["b"], ["y"], name="tanh")],
                [_vi("x", shape=[1, 256])], [_vi("y", shape=[1, 256])]), 1, "--max-arena", "-",
         "needs a 1 KiB arena, more than --max-arena=512 allows"),
        ("quantized_io_second_reader.onnx", _quantized_io_second_reader(), 1, "not only by QuantizeLinear",
         "side_relu", "--quantized-io: the float input feeds a QuantizeLinear and a Relu"),
    ]
    return [_fill_in(c) for c in cases]


def _fill_in(case):
    """Cases whose model needs more than one expression."""
    fname, data, code, problem, node, comment = case
    if fname == "no_default_opset.onnx":
        m = data
        del m.opset_import[0]
        data = m.SerializeToString()
    elif fname == "ir_version_too_new.onnx":
        m = _model_proto([helper.make_node("Relu", ["x"], ["y"], name="relu")], [_vi("x")], [_vi("y")])
        m.ir_version = 99
        data = m.SerializeToString()
    elif fname == "unsupported_control_flow.onnx":
        then_g = helper.make_graph([helper.make_node("Relu", ["x"], ["t"], name="then_relu")], "then", [], [_vi("t")])
        else_g = helper.make_graph([helper.make_node("Sigmoid", ["x"], ["e"], name="else_sig")], "else", [], [_vi("e")])
        data = _model([helper.make_node("If", ["cond"], ["y"], name="branch", then_branch=then_g, else_branch=else_g)],
                      [helper.make_tensor_value_info("cond", TP.BOOL, []), _vi("x")], [_vi("y")])
    elif fname == "hostile_name_in_error.onnx":
        placeholder = b"NAME_PLACEHOLDER"
        m = _model_proto([helper.make_node("FooBar", ["x"], ["y"], name=placeholder.decode())], [_vi("x")], [_vi("y")])
        data = _with_raw_name(m, placeholder, b"\x1b[2J\xff\xfe\r\nerror:X!")
    return fname, data, code, problem, node, comment


def generate_bad(out_dir):
    bdir = Path(out_dir) / "bad"
    if bdir.exists():
        shutil.rmtree(bdir)
    bdir.mkdir(parents=True)
    lines = ["# file\texit_code\tproblem\tnode\targs\tcomment",
             "# onnx-to-c FILE -o EMPTY_DIR [ARGS] must exit with exit_code, print one stderr line",
             "# starting 'error:' that contains `problem` (case-insensitive) and, unless node is '-',",
             "# names node '<node>', and leave EMPTY_DIR empty. args '-': none.",
             "# Generated by models/generate_bad.py; check with tests/e2e/run_bad_models.py."]
    for fname, data, code, problem, node, comment in bad_cases():
        if data is not None:
            (bdir / fname).write_bytes(data)
            if fname.startswith(("truncated", "random_bytes", "deeply_nested")):
                try:
                    onnx.load_from_string(data)
                except Exception:
                    pass
                else:
                    raise AssertionError(f"{fname} parses; pick another seed/cut")
        lines.append(f"{fname}\t{code}\t{problem}\t{node}\t{EXTRA_ARGS.get(fname, '-')}\t{comment}")
    (bdir / "cases.tsv").write_text("\n".join(lines) + "\n")
    return len(lines) - 5


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent), help="output directory (default: models/)")
    n = generate_bad(ap.parse_args().out)
    print(f"{n} bad models written")


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    main()
