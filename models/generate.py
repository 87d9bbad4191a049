#!/usr/bin/python3
"""Generate onnx-to-c's own small test models.

    /usr/bin/python3 models/generate.py [--out DIR] [--ort-dir DIR] [--jobs N] [NAME ...]

For every model this writes
    <out>/<name>/model.onnx
    <out>/<name>/test_data_set_0/input_<i>.pb   (random inputs, named after the graph inputs)
    <out>/<name>/test_data_set_0/output_<i>.pb  (reference outputs computed by ONNX Runtime)
plus <out>/index.tsv (one line per model) and the deliberately broken models in
<out>/bad/ (listed with their expected errors in <out>/bad/cases.tsv).

Everything is seeded (per model, from its name), so a rerun rewrites the same bytes,
except that ONNX Runtime's outputs may differ in the last bits on another CPU.
ONNX Runtime comes from $ONNX_TO_C_ORT_DIR or --ort-dir (installed there on demand by
scripts/install_ort.sh) and is run through scripts/ort_run.js.
Needs Debian's python3-onnx (1.12) and numpy: run with /usr/bin/python3.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
from generate_bad import generate_bad  # noqa: E402
from generate_int8 import register_int8_models  # noqa: E402
from generate_keras import register_keras_models  # noqa: E402
from generate_mobilenet_v2_224 import register_mobilenet_v2_224  # noqa: E402
from generate_modern import register_modern_models  # noqa: E402
from generate_vww import register_vww_model  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ORT_RUN = ROOT / "scripts" / "ort_run.js"
INSTALL_ORT = ROOT / "scripts" / "install_ort.sh"
PRODUCER = "onnx-to-c models/generate.py"
INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min

NP_TO_ONNX = {
    np.dtype(np.float32): TP.FLOAT,
    np.dtype(np.int64): TP.INT64,
    np.dtype(np.int32): TP.INT32,
    np.dtype(np.int8): TP.INT8,
    np.dtype(np.uint8): TP.UINT8,
    np.dtype(np.bool_): TP.BOOL,
}


def ir_version_for(opset):
    """IR version of the first ONNX release that had `opset` (at least 4, so that
    initializers need not be listed as graph inputs)."""
    for _release, ir, op, *_ in helper.VERSION_TABLE:
        if op >= opset:
            return max(ir, 4)
    return helper.VERSION_TABLE[-1][1]


# ---------------------------------------------------------------------------
# Model builder
# ---------------------------------------------------------------------------

class Builder:
    """Collects the graph of one model and the random data fed to it."""

    def __init__(self, name, opset):
        self.name = name
        self.opset = opset
        self.rng = np.random.default_rng(zlib.crc32(name.encode()))
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self.feeds = []          # one numpy array per graph input
        self.ir_version = None   # None: derived from the opset
        self.inits_as_inputs = False  # IR < 4 style: initializers also listed as graph inputs
        self.raw_names = {}      # ASCII placeholder -> the raw bytes written in model.onnx
        self._count = 0

    def raw_name(self, raw):
        """A name made of arbitrary bytes (protobuf's Python API only takes UTF-8): the
        model is built and run with an ASCII placeholder of the same length, which is
        swapped for `raw` in the saved file."""
        placeholder = f"RAW{len(self.raw_names)}".ljust(len(raw), "Q")
        assert len(placeholder) == len(raw), raw
        self.raw_names[placeholder] = raw
        return placeholder

    def _fresh(self, prefix):
        self._count += 1
        return f"{prefix}_{self._count}"

    # -- graph inputs and constants ----------------------------------------
    def input(self, shape, name=None, dtype=np.float32, data=None,
              dist="normal", low=-1.0, high=1.0, scale=1.0):
        """Declare a graph input and draw its test data."""
        name = name or ("x" if not self.inputs else f"x{len(self.inputs)}")
        if data is None:
            if dist == "normal":
                data = self.rng.standard_normal(shape) * scale
            else:
                data = self.rng.uniform(low, high, size=shape)
        data = np.asarray(data).astype(dtype)
        assert list(data.shape) == list(shape), (name, data.shape, shape)
        self.inputs.append(helper.make_tensor_value_info(name, NP_TO_ONNX[data.dtype], list(shape)))
        self.feeds.append(data)
        return name

    def const(self, array, name=None, dtype=None):
        """Add an initializer holding `array` (int lists become int64)."""
        array = np.asarray(array)
        if dtype is not None:
            array = array.astype(dtype)
        elif array.dtype == np.float64:
            array = array.astype(np.float32)
        elif array.dtype.kind in "iu" and array.dtype != np.uint8 and array.dtype != np.int8:
            array = array.astype(np.int64)
        name = name or self._fresh("c")
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def weight(self, shape, name=None, scale=None):
        """Random float32 initializer scaled like a trained layer (1/sqrt(fan_in))."""
        if scale is None:
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
            scale = 1.0 / np.sqrt(fan_in)
        return self.const(self.rng.standard_normal(shape) * scale, name or self._fresh("w"))

    def bias(self, n, name=None):
        return self.weight([n], name or self._fresh("b"), scale=0.1)

    def uniform(self, shape, low, high, name=None):
        return self.const(self.rng.uniform(low, high, size=shape), name)

    # -- nodes -----------------------------------------------------------------
    def node(self, op, inputs, outputs=1, name=None, domain=None, **attrs):
        """Add a node; `outputs` is a count or a list of names. Returns the output
        name (or the list of names when there are several)."""
        if isinstance(outputs, int):
            outputs = [self._fresh(op.lower()) for _ in range(outputs)]
        name = self._fresh(op) if name is None else name
        self.nodes.append(helper.make_node(op, list(inputs), list(outputs), name=name,
                                           domain=domain, **attrs))
        return outputs[0] if len(outputs) == 1 else outputs

    def bn(self, x, channels, **attrs):
        """BatchNormalization with plausible trained statistics."""
        scale = self.uniform([channels], 0.5, 1.5)
        shift = self.weight([channels], scale=0.1)
        mean = self.weight([channels], scale=0.1)
        var = self.uniform([channels], 0.5, 1.5)
        return self.node("BatchNormalization", [x, scale, shift, mean, var], **attrs)

    def output(self, *names):
        for n in names:
            vi = onnx.ValueInfoProto()
            vi.name = n
            self.outputs.append(vi)

    # -- result ------------------------------------------------------------------
    def build(self, doc):
        """The ModelProto, with graph output element types (and shapes where ONNX shape
        inference knows them) filled in; generate_model() completes the shapes from ORT."""
        inputs = list(self.inputs)
        if self.inits_as_inputs:
            inputs += [helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in self.inits]
        graph = helper.make_graph(self.nodes, self.name, inputs, self.outputs,
                                  initializer=self.inits)
        model = helper.make_model(graph, producer_name=PRODUCER, doc_string=doc,
                                  opset_imports=[helper.make_opsetid("", self.opset)])
        model.ir_version = self.ir_version or ir_version_for(self.opset)
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)
        types = {vi.name: vi.type for vi in list(inferred.graph.value_info) + list(inferred.graph.output)
                 + list(inferred.graph.input)}
        for out in model.graph.output:
            out.type.CopyFrom(types[out.name])
        return model


MODELS = {}  # name -> (builder function, opset)


def model(name, opset=13):
    def register(fn):
        assert name not in MODELS, name
        MODELS[name] = (fn, opset)
        return fn
    return register


# ---------------------------------------------------------------------------
# Convolution
# ---------------------------------------------------------------------------

@model("conv2d_basic")
def _(b):
    """3x3 Conv, pads 1, with bias"""
    y = b.node("Conv", [b.input([1, 3, 8, 8]), b.weight([4, 3, 3, 3]), b.bias(4)],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b.output(y)


@model("conv2d_strides_pads", opset=11)
def _(b):
    """3x3 Conv, strides 2, asymmetric pads [0,1,2,1]"""
    y = b.node("Conv", [b.input([1, 3, 9, 9]), b.weight([4, 3, 3, 3]), b.bias(4)],
               kernel_shape=[3, 3], strides=[2, 2], pads=[0, 1, 2, 1])
    b.output(y)


@model("conv2d_dilations")
def _(b):
    """3x3 Conv, dilations 2, pads 2"""
    y = b.node("Conv", [b.input([1, 2, 10, 10]), b.weight([3, 2, 3, 3]), b.bias(3)],
               kernel_shape=[3, 3], dilations=[2, 2], pads=[2, 2, 2, 2])
    b.output(y)


@model("conv2d_group", opset=7)
def _(b):
    """grouped Conv, group 2"""
    y = b.node("Conv", [b.input([1, 4, 6, 6]), b.weight([6, 2, 3, 3]), b.bias(6)],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=2)
    b.output(y)


@model("conv2d_depthwise", opset=11)
def _(b):
    """depthwise 3x3 Conv (group = channels), strides 2"""
    y = b.node("Conv", [b.input([1, 6, 7, 7]), b.weight([6, 1, 3, 3]), b.bias(6)],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2], group=6)
    b.output(y)


@model("conv2d_depthwise_multiplier", opset=13)
def _(b):
    """depthwise Conv with channel multiplier 2 (group 3, 6 output channels)"""
    y = b.node("Conv", [b.input([1, 3, 6, 6]), b.weight([6, 1, 3, 3]), b.bias(6)],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=3)
    b.output(y)


@model("conv2d_autopad_same_upper")
def _(b):
    """Conv auto_pad SAME_UPPER, kernel 4x3, strides 2 (odd total padding)"""
    y = b.node("Conv", [b.input([1, 2, 7, 7]), b.weight([3, 2, 4, 3]), b.bias(3)],
               kernel_shape=[4, 3], strides=[2, 2], auto_pad="SAME_UPPER")
    b.output(y)


@model("conv2d_autopad_same_lower")
def _(b):
    """Conv auto_pad SAME_LOWER, kernel 4x3, strides 2 (odd total padding)"""
    y = b.node("Conv", [b.input([1, 2, 7, 7]), b.weight([3, 2, 4, 3]), b.bias(3)],
               kernel_shape=[4, 3], strides=[2, 2], auto_pad="SAME_LOWER")
    b.output(y)


@model("conv2d_autopad_valid", opset=11)
def _(b):
    """Conv auto_pad VALID, kernel 3x2, strides [2,1]"""
    y = b.node("Conv", [b.input([1, 2, 7, 6]), b.weight([3, 2, 3, 2]), b.bias(3)],
               kernel_shape=[3, 2], strides=[2, 1], auto_pad="VALID")
    b.output(y)


@model("conv2d_nobias", opset=9)
def _(b):
    """3x3 Conv without bias, kernel_shape attribute omitted"""
    y = b.node("Conv", [b.input([1, 3, 6, 5]), b.weight([5, 3, 3, 3])], pads=[1, 1, 1, 1])
    b.output(y)


@model("conv2d_pointwise")
def _(b):
    """1x1 Conv"""
    y = b.node("Conv", [b.input([1, 8, 5, 5]), b.weight([16, 8, 1, 1]), b.bias(16)],
               kernel_shape=[1, 1])
    b.output(y)


@model("conv2d_batch2", opset=11)
def _(b):
    """3x3 Conv on a batch of 2"""
    y = b.node("Conv", [b.input([2, 3, 5, 5]), b.weight([4, 3, 3, 3]), b.bias(4)],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b.output(y)


@model("conv1d")
def _(b):
    """1-D Conv, kernel 5, strides 2, asymmetric pads [2,1]"""
    y = b.node("Conv", [b.input([1, 3, 20]), b.weight([4, 3, 5]), b.bias(4)],
               kernel_shape=[5], strides=[2], pads=[2, 1])
    b.output(y)


@model("conv1d_dilated_group", opset=11)
def _(b):
    """1-D Conv, dilations 2, group 3"""
    y = b.node("Conv", [b.input([1, 6, 16]), b.weight([6, 2, 3]), b.bias(6)],
               kernel_shape=[3], dilations=[2], pads=[2, 2], group=3)
    b.output(y)


@model("conv_bn", opset=15)
def _(b):
    """Conv (no bias) + BatchNormalization (foldable)"""
    y = b.node("Conv", [b.input([1, 3, 6, 6]), b.weight([4, 3, 3, 3])],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b.output(b.bn(y, 4, epsilon=1e-3))


@model("conv_bn_relu", opset=9)
def _(b):
    """Conv (bias) + BatchNormalization + Relu"""
    y = b.node("Conv", [b.input([1, 3, 6, 6]), b.weight([4, 3, 3, 3]), b.bias(4)],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b.output(b.node("Relu", [b.bn(y, 4)]))


@model("conv_relu")
def _(b):
    """Conv + Relu"""
    y = b.node("Conv", [b.input([1, 3, 6, 6]), b.weight([4, 3, 3, 3]), b.bias(4)],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b.output(b.node("Relu", [y]))


@model("conv_clip", opset=11)
def _(b):
    """Conv + Clip(0, 6) with min/max inputs (ReLU6)"""
    y = b.node("Conv", [b.input([1, 3, 6, 6], scale=3.0), b.weight([4, 3, 3, 3]), b.bias(4)],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b.output(b.node("Clip", [y, b.const(np.float32(0)), b.const(np.float32(6))]))


@model("conv_clip_opset9", opset=9)
def _(b):
    """Conv + Clip-6 with min/max attributes (ReLU6)"""
    y = b.node("Conv", [b.input([1, 3, 6, 6], scale=3.0), b.weight([4, 3, 3, 3]), b.bias(4)],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b.output(b.node("Clip", [y], min=0.0, max=6.0))


@model("batchnorm", opset=14)
def _(b):
    """BatchNormalization alone (4-D input)"""
    b.output(b.bn(b.input([2, 4, 3, 3]), 4, epsilon=1e-5))


@model("batchnorm_opset7", opset=7)
def _(b):
    """BatchNormalization-7 with spatial=1 attribute"""
    b.output(b.bn(b.input([1, 3, 4, 4]), 3, spatial=1))


@model("batchnorm_2d", opset=15)
def _(b):
    """BatchNormalization on a 2-D (N, C) input"""
    b.output(b.bn(b.input([4, 6]), 6))


@model("convtranspose_basic")
def _(b):
    """ConvTranspose 3x3, stride 1, bias"""
    y = b.node("ConvTranspose", [b.input([1, 3, 5, 5]), b.weight([3, 4, 3, 3]), b.bias(4)],
               kernel_shape=[3, 3])
    b.output(y)


@model("convtranspose_strides_pads", opset=11)
def _(b):
    """ConvTranspose 3x3, strides 2, pads 1, output_padding 1"""
    y = b.node("ConvTranspose", [b.input([1, 4, 4, 4]), b.weight([4, 2, 3, 3]), b.bias(2)],
               kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1])
    b.output(y)


@model("convtranspose_group")
def _(b):
    """ConvTranspose 2x2, strides 2, group 2, no bias"""
    y = b.node("ConvTranspose", [b.input([1, 4, 3, 3]), b.weight([4, 3, 2, 2])],
               kernel_shape=[2, 2], strides=[2, 2], group=2)
    b.output(y)


@model("convtranspose_rect", opset=17)
def _(b):
    """ConvTranspose kernel 3x2, strides [2,1], asymmetric pads"""
    y = b.node("ConvTranspose", [b.input([1, 2, 4, 5]), b.weight([2, 3, 3, 2]), b.bias(3)],
               kernel_shape=[3, 2], strides=[2, 1], pads=[1, 0, 0, 1])
    b.output(y)


# ---------------------------------------------------------------------------
# Gemm / MatMul
# ---------------------------------------------------------------------------

@model("gemm_linear")
def _(b):
    """Gemm transB=1 with C of shape (N,) (torch Linear)"""
    y = b.node("Gemm", [b.input([2, 8]), b.weight([5, 8]), b.bias(5)], transB=1)
    b.output(y)


@model("gemm_transA", opset=11)
def _(b):
    """Gemm transA=1 with C of shape (1, N)"""
    c = b.weight([1, 5], scale=0.1)
    y = b.node("Gemm", [b.input([8, 3]), b.weight([8, 5]), c], transA=1)
    b.output(y)


@model("gemm_alpha_beta", opset=9)
def _(b):
    """Gemm alpha 0.5, beta 2, C of shape (M, N)"""
    y = b.node("Gemm", [b.input([3, 6]), b.weight([6, 4]), b.weight([3, 4], scale=0.1)],
               alpha=0.5, beta=2.0)
    b.output(y)


@model("gemm_scalar_c", opset=7)
def _(b):
    """Gemm with scalar C (shape ())"""
    y = b.node("Gemm", [b.input([3, 6]), b.weight([4, 6]), b.const(np.float32(0.25))], transB=1)
    b.output(y)


@model("gemm_c_column", opset=11)
def _(b):
    """Gemm with C of shape (M, 1)"""
    y = b.node("Gemm", [b.input([3, 6]), b.weight([6, 4]), b.weight([3, 1], scale=0.1)])
    b.output(y)


@model("gemm_no_c")
def _(b):
    """Gemm transA=1 transB=1 without C"""
    y = b.node("Gemm", [b.input([6, 3]), b.weight([4, 6])], transA=1, transB=1)
    b.output(y)


@model("matmul_2d")
def _(b):
    """MatMul (3,5) x (5,4) with constant B"""
    b.output(b.node("MatMul", [b.input([3, 5]), b.weight([5, 4])]))


@model("matmul_batched", opset=9)
def _(b):
    """MatMul (2,3,4) x (2,4,5), both graph inputs"""
    b.output(b.node("MatMul", [b.input([2, 3, 4]), b.input([2, 4, 5])]))


@model("matmul_broadcast")
def _(b):
    """MatMul (2,1,3,4) x (5,4,6): broadcast batch dims"""
    b.output(b.node("MatMul", [b.input([2, 1, 3, 4]), b.weight([5, 4, 6])]))


@model("matmul_1d_left")
def _(b):
    """MatMul (4,) x (4,5) -> (5,)"""
    b.output(b.node("MatMul", [b.input([4]), b.weight([4, 5])]))


@model("matmul_1d_right")
def _(b):
    """MatMul (2,3,4) x (4,) -> (2,3)"""
    b.output(b.node("MatMul", [b.input([2, 3, 4]), b.weight([4])]))


@model("matmul_1d_both")
def _(b):
    """MatMul (4,) x (4,) -> scalar"""
    b.output(b.node("MatMul", [b.input([4]), b.input([4])]))


@model("mlp_small")
def _(b):
    """Gemm-Relu-Gemm-Relu-Gemm (dense autoencoder style)"""
    h = b.node("Relu", [b.node("Gemm", [b.input([1, 16]), b.weight([12, 16]), b.bias(12)], transB=1)])
    h = b.node("Relu", [b.node("Gemm", [h, b.weight([4, 12]), b.bias(4)], transB=1)])
    b.output(b.node("Gemm", [h, b.weight([16, 4]), b.bias(16)], transB=1))


# ---------------------------------------------------------------------------
# Activations
# ---------------------------------------------------------------------------

@model("relu", opset=14)
def _(b):
    """Relu"""
    b.output(b.node("Relu", [b.input([2, 3, 4])]))


@model("clip_opset6", opset=7)
def _(b):
    """Clip-6 with min/max attributes"""
    b.output(b.node("Clip", [b.input([2, 3, 4])], min=-0.5, max=0.75))


@model("clip_opset11", opset=11)
def _(b):
    """Clip-11 with min and max inputs"""
    b.output(b.node("Clip", [b.input([2, 3, 4]), b.const(np.float32(-1)), b.const(np.float32(1.5))]))


@model("clip_min_only")
def _(b):
    """Clip-13 with only the min input"""
    b.output(b.node("Clip", [b.input([2, 3, 4]), b.const(np.float32(-0.25))]))


@model("clip_max_only", opset=12)
def _(b):
    """Clip-12 with min omitted ('') and a max input"""
    b.output(b.node("Clip", [b.input([2, 3, 4]), "", b.const(np.float32(0.5))]))


@model("leakyrelu", opset=16)
def _(b):
    """LeakyRelu alpha 0.2"""
    b.output(b.node("LeakyRelu", [b.input([2, 3, 4])], alpha=0.2))


@model("leakyrelu_default", opset=7)
def _(b):
    """LeakyRelu with default alpha (0.01)"""
    b.output(b.node("LeakyRelu", [b.input([2, 3, 4])]))


@model("sigmoid")
def _(b):
    """Sigmoid on a wide input range (saturation)"""
    b.output(b.node("Sigmoid", [b.input([2, 3, 8], scale=6.0)]))


@model("hardsigmoid", opset=7)
def _(b):
    """HardSigmoid with default alpha 0.2 beta 0.5"""
    b.output(b.node("HardSigmoid", [b.input([2, 3, 8], scale=3.0)]))


@model("hardsigmoid_torch")
def _(b):
    """HardSigmoid alpha 1/6 beta 0.5 (torch export)"""
    b.output(b.node("HardSigmoid", [b.input([2, 3, 8], scale=4.0)], alpha=1.0 / 6.0, beta=0.5))


@model("hardswish", opset=14)
def _(b):
    """HardSwish"""
    b.output(b.node("HardSwish", [b.input([2, 3, 8], scale=4.0)]))


@model("tanh")
def _(b):
    """Tanh"""
    b.output(b.node("Tanh", [b.input([2, 3, 8], scale=3.0)]))


@model("softmax_opset11_3d", opset=11)
def _(b):
    """Softmax-11 default axis 1 on a 3-D input (coerced to 2-D [2, 12])"""
    b.output(b.node("Softmax", [b.input([2, 3, 4], scale=2.0)]))


@model("softmax_opset11_2d", opset=11)
def _(b):
    """Softmax-11 axis -1 on (3, 10) (classifier head)"""
    b.output(b.node("Softmax", [b.input([3, 10], scale=2.0)], axis=-1))


@model("softmax_opset13_axis1_3d")
def _(b):
    """Softmax-13 axis 1 on a 3-D input (along that axis only)"""
    b.output(b.node("Softmax", [b.input([2, 3, 4], scale=2.0)], axis=1))


@model("softmax_opset13_default")
def _(b):
    """Softmax-13 default axis -1 on a 4-D input"""
    b.output(b.node("Softmax", [b.input([1, 2, 3, 5], scale=2.0)]))


# ---------------------------------------------------------------------------
# Elementwise binary ops with broadcasting
# ---------------------------------------------------------------------------

@model("add_same_shape", opset=7)
def _(b):
    """Add of two inputs of the same shape"""
    b.output(b.node("Add", [b.input([2, 3, 4]), b.input([2, 3, 4])]))


@model("add_scalar")
def _(b):
    """Add of a scalar () constant"""
    b.output(b.node("Add", [b.input([2, 3, 4]), b.const(np.float32(1.5))]))


@model("add_two_way", opset=11)
def _(b):
    """Add (2,1,4) + (3,1) -> (2,3,4): both operands broadcast"""
    b.output(b.node("Add", [b.input([2, 1, 4]), b.input([3, 1])]))


@model("sub_row", opset=14)
def _(b):
    """Sub (2,3,4,5) - (5,): row broadcast"""
    b.output(b.node("Sub", [b.input([2, 3, 4, 5]), b.weight([5], scale=1.0)]))


@model("sub_left_broadcast")
def _(b):
    """Sub (3,1) - (2,3,4): the smaller operand on the left"""
    b.output(b.node("Sub", [b.weight([3, 1], scale=1.0), b.input([2, 3, 4])]))


@model("mul_column")
def _(b):
    """Mul (2,3,4) * (3,1): column broadcast"""
    b.output(b.node("Mul", [b.input([2, 3, 4]), b.weight([3, 1], scale=1.0)]))


@model("mul_scalar_first", opset=7)
def _(b):
    """Mul scalar () * (2,3,4)"""
    b.output(b.node("Mul", [b.const(np.float32(-0.75)), b.input([2, 3, 4])]))


@model("div_rank_mismatch")
def _(b):
    """Div (2,3,4,5) / (3,1,5): rank mismatch, positive divisor"""
    b.output(b.node("Div", [b.input([2, 3, 4, 5]), b.uniform([3, 1, 5], 0.5, 2.0)]))


@model("pow_positive_base")
def _(b):
    """Pow with a positive base (2,3,4) and exponent row (4,)"""
    base = b.input([2, 3, 4], dist="uniform", low=0.5, high=2.0)
    b.output(b.node("Pow", [base, b.const(np.float32([-2.0, -0.5, 1.5, 3.0]))]))


@model("pow_square", opset=12)
def _(b):
    """Pow x^2 with a scalar exponent (LayerNorm-style)"""
    b.output(b.node("Pow", [b.input([2, 3, 4]), b.const(np.float32(2.0))]))


@model("sqrt")
def _(b):
    """Sqrt of a positive input"""
    b.output(b.node("Sqrt", [b.input([2, 3, 4], dist="uniform", low=0.01, high=4.0)]))


# ---------------------------------------------------------------------------
# Shape / data movement
# ---------------------------------------------------------------------------

@model("concat_axis1")
def _(b):
    """Concat of two inputs along axis 1 (channels)"""
    b.output(b.node("Concat", [b.input([1, 2, 3, 3]), b.input([1, 3, 3, 3])], axis=1))


@model("concat_neg_axis", opset=11)
def _(b):
    """Concat along axis -1"""
    b.output(b.node("Concat", [b.input([2, 3]), b.input([2, 5])], axis=-1))


@model("concat_three", opset=7)
def _(b):
    """Concat of three tensors (one constant) along axis 1"""
    b.output(b.node("Concat", [b.input([1, 2, 4]), b.weight([1, 3, 4], scale=1.0), b.input([1, 1, 4])],
                    axis=1))


@model("slice_opset9", opset=9)
def _(b):
    """Slice-1 attributes starts/ends/axes, end past the dim (clamped)"""
    b.output(b.node("Slice", [b.input([2, 4, 5])], starts=[1, 0], ends=[3, 100], axes=[1, 2]))


@model("slice_negative")
def _(b):
    """Slice-13 inputs with negative starts and ends"""
    x = b.input([2, 4, 6])
    b.output(b.node("Slice", [x, b.const([-3, 1]), b.const([-1, -1]), b.const([2, 1])]))


@model("slice_step2")
def _(b):
    """Slice-13 steps 2 with INT64_MAX ends"""
    x = b.input([1, 5, 4, 7])
    b.output(b.node("Slice", [x, b.const([0, 1]), b.const([INT64_MAX, INT64_MAX]),
                              b.const([1, 3]), b.const([2, 2])]))


@model("slice_reverse")
def _(b):
    """Slice-13 step -1 from -1 to INT64_MIN (flip the last axis)"""
    x = b.input([2, 3, 5])
    b.output(b.node("Slice", [x, b.const([-1]), b.const([INT64_MIN]), b.const([-1]), b.const([-1])]))


@model("slice_no_axes", opset=10)
def _(b):
    """Slice-10 with axes and steps omitted"""
    x = b.input([3, 4, 5])
    b.output(b.node("Slice", [x, b.const([0, 1, 1]), b.const([2, 3, 4])]))


@model("split_opset11_attr", opset=11)
def _(b):
    """Split-11 with split attribute [1, 3] on axis 1: two outputs"""
    outs = b.node("Split", [b.input([2, 4, 3])], outputs=2, axis=1, split=[1, 3])
    b.output(*outs)


@model("split_opset13_input")
def _(b):
    """Split-13 with split input [2, 1, 3] on axis -1: three outputs"""
    outs = b.node("Split", [b.input([2, 6]), b.const([2, 1, 3])], outputs=3, axis=-1)
    b.output(*outs)


@model("split_equal")
def _(b):
    """Split-13 into 3 equal parts (no split input)"""
    outs = b.node("Split", [b.input([1, 6, 2])], outputs=3, axis=1)
    b.output(*outs)


@model("transpose_nhwc")
def _(b):
    """Transpose perm [0,2,3,1]"""
    b.output(b.node("Transpose", [b.input([1, 2, 3, 4])], perm=[0, 2, 3, 1]))


@model("transpose_default", opset=7)
def _(b):
    """Transpose without perm (reverse the axes)"""
    b.output(b.node("Transpose", [b.input([2, 3, 4])]))


@model("channel_shuffle", opset=11)
def _(b):
    """Reshape-Transpose-Reshape channel shuffle (ShuffleNet)"""
    x = b.node("Reshape", [b.input([1, 8, 3, 3]), b.const([1, 2, 4, 3, 3])])
    x = b.node("Transpose", [x], perm=[0, 2, 1, 3, 4])
    b.output(b.node("Reshape", [x, b.const([1, 8, 3, 3])]))


@model("reshape_zero_neg1")
def _(b):
    """Reshape with shape [0, -1] (copy dim 0, infer the rest)"""
    b.output(b.node("Reshape", [b.input([2, 3, 4]), b.const([0, -1])]))


@model("reshape_neg1_first", opset=7)
def _(b):
    """Reshape with shape [-1, 4, 0]"""
    b.output(b.node("Reshape", [b.input([2, 3, 4, 2]), b.const([-1, 4, 0])]))


@model("flatten_axis1")
def _(b):
    """Flatten (default axis 1)"""
    b.output(b.node("Flatten", [b.input([2, 3, 4, 5])]))


@model("flatten_axis0", opset=9)
def _(b):
    """Flatten axis 0 -> (1, N)"""
    b.output(b.node("Flatten", [b.input([2, 3, 4])], axis=0))


@model("flatten_neg_axis", opset=11)
def _(b):
    """Flatten axis -1"""
    b.output(b.node("Flatten", [b.input([2, 3, 4, 5])], axis=-1))


@model("squeeze_opset11", opset=11)
def _(b):
    """Squeeze-11 axes attribute [1, -1]"""
    b.output(b.node("Squeeze", [b.input([2, 1, 3, 1])], axes=[1, -1]))


@model("squeeze_opset13")
def _(b):
    """Squeeze-13 axes input [1]"""
    b.output(b.node("Squeeze", [b.input([2, 1, 3, 1]), b.const([1])]))


@model("squeeze_all", opset=13)
def _(b):
    """Squeeze-13 without axes (all size-1 dims)"""
    b.output(b.node("Squeeze", [b.input([1, 3, 1, 2])]))


@model("unsqueeze_opset11", opset=11)
def _(b):
    """Unsqueeze-11 axes attribute [0, -1]"""
    b.output(b.node("Unsqueeze", [b.input([3, 4])], axes=[0, -1]))


@model("unsqueeze_opset13")
def _(b):
    """Unsqueeze-13 axes input [1, 2]"""
    b.output(b.node("Unsqueeze", [b.input([3, 4]), b.const([1, 2])]))


@model("expand_rank_up")
def _(b):
    """Expand (3,1) to shape [2,3,4]"""
    b.output(b.node("Expand", [b.input([3, 1]), b.const([2, 3, 4])]))


@model("expand_bidirectional", opset=8)
def _(b):
    """Expand (3,1) with shape [2,1,6] -> (2,3,6) (bidirectional broadcast)"""
    b.output(b.node("Expand", [b.input([3, 1]), b.const([2, 1, 6])]))


@model("pad_constant", opset=11)
def _(b):
    """Pad-11 constant mode with pads input and constant_value 0.5"""
    x = b.input([1, 2, 3, 4])
    b.output(b.node("Pad", [x, b.const([0, 0, 1, 2, 0, 0, 2, 1]), b.const(np.float32(0.5))],
                    mode="constant"))


@model("pad_reflect", opset=11)
def _(b):
    """Pad-11 reflect mode"""
    x = b.input([1, 2, 4, 5])
    b.output(b.node("Pad", [x, b.const([0, 0, 1, 2, 0, 0, 2, 1])], mode="reflect"))


@model("pad_edge", opset=13)
def _(b):
    """Pad-13 edge mode"""
    x = b.input([1, 2, 3, 4])
    b.output(b.node("Pad", [x, b.const([0, 0, 2, 1, 0, 0, 1, 3])], mode="edge"))


@model("pad_opset2", opset=7)
def _(b):
    """Pad-2 with pads/value attributes"""
    b.output(b.node("Pad", [b.input([1, 2, 3, 3])], pads=[0, 0, 1, 0, 0, 0, 0, 2], value=1.5))


# ---------------------------------------------------------------------------
# Pooling and reductions
# ---------------------------------------------------------------------------

@model("maxpool_2x2", opset=7)
def _(b):
    """MaxPool 2x2 strides 2"""
    b.output(b.node("MaxPool", [b.input([1, 3, 6, 6])], kernel_shape=[2, 2], strides=[2, 2]))


@model("maxpool_pads_strides", opset=11)
def _(b):
    """MaxPool 3x3 strides 2 pads 1 (ResNet stem)"""
    b.output(b.node("MaxPool", [b.input([1, 2, 9, 9])], kernel_shape=[3, 3], strides=[2, 2],
                    pads=[1, 1, 1, 1]))


@model("maxpool_ceil", opset=12)
def _(b):
    """MaxPool 3x3 strides 2 ceil_mode 1"""
    b.output(b.node("MaxPool", [b.input([1, 2, 8, 8])], kernel_shape=[3, 3], strides=[2, 2],
                    ceil_mode=1))


@model("averagepool_exclude_pad", opset=11)
def _(b):
    """AveragePool 3x3 pads 1 count_include_pad 0"""
    b.output(b.node("AveragePool", [b.input([1, 2, 5, 5])], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                    count_include_pad=0))


@model("averagepool_include_pad", opset=7)
def _(b):
    """AveragePool 3x3 strides 2 pads 1 count_include_pad 1"""
    b.output(b.node("AveragePool", [b.input([1, 2, 7, 7])], kernel_shape=[3, 3], strides=[2, 2],
                    pads=[1, 1, 1, 1], count_include_pad=1))


@model("averagepool_2x2")
def _(b):
    """AveragePool 2x2 strides 2, no pads"""
    b.output(b.node("AveragePool", [b.input([1, 3, 6, 4])], kernel_shape=[2, 2], strides=[2, 2]))


@model("globalaveragepool")
def _(b):
    """GlobalAveragePool"""
    b.output(b.node("GlobalAveragePool", [b.input([1, 5, 4, 3])]))


@model("reducemean_keepdims1")
def _(b):
    """ReduceMean axes [2,3] keepdims 1 (pooling as exported by torch)"""
    b.output(b.node("ReduceMean", [b.input([1, 4, 3, 5])], axes=[2, 3], keepdims=1))


@model("reducemean_keepdims0", opset=11)
def _(b):
    """ReduceMean axes [1] keepdims 0"""
    b.output(b.node("ReduceMean", [b.input([2, 3, 4])], axes=[1], keepdims=0))


@model("reducemean_all", opset=9)
def _(b):
    """ReduceMean over all axes, keepdims 0 -> scalar"""
    b.output(b.node("ReduceMean", [b.input([2, 3, 4])], keepdims=0))


@model("reducesum_keepdims1", opset=11)
def _(b):
    """ReduceSum-11 axes attribute [-1] keepdims 1"""
    b.output(b.node("ReduceSum", [b.input([2, 3, 4])], axes=[-1], keepdims=1))


@model("reducesum_axes_input")
def _(b):
    """ReduceSum-13 axes input [0, 2] keepdims 0"""
    b.output(b.node("ReduceSum", [b.input([2, 3, 4]), b.const([0, 2])], keepdims=0))


# ---------------------------------------------------------------------------
# Resize
# ---------------------------------------------------------------------------

@model("resize_nearest_scales")
def _(b):
    """Resize-13 nearest asymmetric floor, scales [1,1,2,2]"""
    x = b.input([1, 2, 3, 4])
    b.output(b.node("Resize", [x, "", b.const(np.float32([1, 1, 2, 2]))], mode="nearest",
                    coordinate_transformation_mode="asymmetric", nearest_mode="floor"))


@model("resize_linear_scales")
def _(b):
    """Resize-13 linear half_pixel, scales [1,1,2,1.5]"""
    x = b.input([1, 2, 3, 4])
    b.output(b.node("Resize", [x, "", b.const(np.float32([1, 1, 2, 1.5]))], mode="linear",
                    coordinate_transformation_mode="half_pixel"))


@model("resize_nearest_sizes")
def _(b):
    """Resize-13 nearest asymmetric floor, sizes [1,2,5,7]"""
    x = b.input([1, 2, 3, 4])
    b.output(b.node("Resize", [x, "", "", b.const([1, 2, 5, 7])], mode="nearest",
                    coordinate_transformation_mode="asymmetric", nearest_mode="floor"))


@model("resize_linear_sizes")
def _(b):
    """Resize-13 linear half_pixel, sizes [1,2,6,9]"""
    x = b.input([1, 2, 3, 4])
    b.output(b.node("Resize", [x, "", "", b.const([1, 2, 6, 9])], mode="linear",
                    coordinate_transformation_mode="half_pixel"))


@model("resize_opset11_nearest", opset=11)
def _(b):
    """Resize-11 nearest asymmetric floor, empty roi, scales [1,1,2,2]"""
    x = b.input([1, 2, 3, 4])
    roi = b.const(np.zeros([0], np.float32))
    b.output(b.node("Resize", [x, roi, b.const(np.float32([1, 1, 2, 2]))], mode="nearest",
                    coordinate_transformation_mode="asymmetric", nearest_mode="floor"))


@model("resize_opset11_linear", opset=11)
def _(b):
    """Resize-11 linear (default half_pixel), scales [1,1,2,2]"""
    x = b.input([1, 2, 3, 4])
    roi = b.const(np.zeros([0], np.float32))
    b.output(b.node("Resize", [x, roi, b.const(np.float32([1, 1, 2, 2]))], mode="linear"))


@model("resize_overlap_upsample")
def _(b):
    """Conv, Resize nearest x2 of that arena tensor (a plane overlap contract with a positive displacement), Conv"""
    # 8 planes of 6x6 grow to 12x12: the output may start (8-1)*(576-144) = 3024
    # bytes below its dying input, no less; credit (the input) > scratch (a plane).
    x = b.input([1, 3, 6, 6])
    h = b.node("Conv", [x, b.weight([8, 3, 3, 3]), b.bias(8)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    u = b.node("Resize", [h, "", b.const(np.float32([1, 1, 2, 2]))], mode="nearest",
               coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    b.output(b.node("Conv", [u, b.weight([2, 8, 3, 3]), b.bias(2)], kernel_shape=[3, 3], pads=[1, 1, 1, 1]))


# ---------------------------------------------------------------------------
# Gather and shape arithmetic
# ---------------------------------------------------------------------------

@model("gather_axis0")
def _(b):
    """Gather axis 0 with constant 2-D indices"""
    b.output(b.node("Gather", [b.input([5, 3]), b.const([[0, 4], [2, 2]])], axis=0))


@model("gather_axis1_negative", opset=11)
def _(b):
    """Gather axis 1 with a negative index"""
    b.output(b.node("Gather", [b.input([2, 5, 3]), b.const([-1, 0, 3])], axis=1))


@model("gather_scalar_index")
def _(b):
    """Gather axis 1 with a scalar index (drops the axis)"""
    b.output(b.node("Gather", [b.input([2, 5, 3]), b.const(np.int64(2))], axis=1))


@model("shape_chain_opset11", opset=11)
def _(b):
    """torch.flatten export: Shape-Gather-Unsqueeze(attr)-Concat-Reshape"""
    x = b.node("Relu", [b.input([2, 3, 2, 2])])
    shape = b.node("Shape", [x])
    idx = b.node("Constant", [], value=numpy_helper.from_array(np.int64(0), "idx"))
    dim0 = b.node("Gather", [shape, idx], axis=0)
    dim0 = b.node("Unsqueeze", [dim0], axes=[0])
    new_shape = b.node("Concat", [dim0, b.const([-1])], axis=0)
    b.output(b.node("Reshape", [x, new_shape]))


@model("shape_chain_opset13")
def _(b):
    """x.view(x.size(0), -1) export: Shape-Gather-Unsqueeze(input)-Concat-Reshape"""
    x = b.node("Sigmoid", [b.input([2, 3, 2, 2])])
    shape = b.node("Shape", [x])
    idx = b.node("Constant", [], value=numpy_helper.from_array(np.int64(0), "idx"))
    dim0 = b.node("Gather", [shape, idx], axis=0)
    axes = b.node("Constant", [], value=numpy_helper.from_array(np.int64([0]), "axes"))
    dim0 = b.node("Unsqueeze", [dim0, axes])
    minus1 = b.node("Constant", [], value=numpy_helper.from_array(np.int64([-1]), "minus1"))
    new_shape = b.node("Concat", [dim0, minus1], axis=0)
    b.output(b.node("Reshape", [x, new_shape]))


@model("constant_nodes")
def _(b):
    """Constant nodes: value tensor, value_float, value_ints (as a Reshape shape)"""
    x = b.input([2, 3])
    c = b.node("Constant", [], value=numpy_helper.from_array(np.float32([0.5, -1.0, 2.0]), "cv"))
    y = b.node("Add", [x, c])
    s = b.node("Constant", [], value_float=3.0)
    y = b.node("Mul", [y, s])
    shape = b.node("Constant", [], value_ints=[3, 2])
    b.output(b.node("Reshape", [y, shape]))


# ---------------------------------------------------------------------------
# Graph structure
# ---------------------------------------------------------------------------

@model("identity_dropout")
def _(b):
    """Identity and Dropout-13 (inference no-ops) around a Relu"""
    x = b.node("Identity", [b.input([2, 3, 4])])
    x = b.node("Relu", [x])
    x = b.node("Dropout", [x])
    b.output(b.node("Identity", [x]))


@model("dropout_opset7", opset=7)
def _(b):
    """Dropout-7 with ratio attribute"""
    x = b.node("Dropout", [b.input([2, 5])], ratio=0.3)
    b.output(b.node("Tanh", [x]))


@model("dropout_mask_unused", opset=12)
def _(b):
    """Dropout-12 with an unused bool mask output"""
    y, _mask = b.node("Dropout", [b.input([2, 5])], outputs=2)
    b.output(b.node("Sigmoid", [y]))


@model("ir3_initializers_as_inputs", opset=8)
def _(b):
    """IR version 3: the weights are also listed as graph inputs (old exporters)"""
    b.ir_version = 3
    b.inits_as_inputs = True
    y = b.node("Gemm", [b.input([2, 6]), b.weight([4, 6], name="fc.weight"), b.bias(4, name="fc.bias")],
               transB=1)
    b.output(b.node("Relu", [y]))


@model("identity_passthrough")
def _(b):
    """graph output = Identity(graph input)"""
    b.output(b.node("Identity", [b.input([2, 3])]))


@model("two_inputs_two_outputs")
def _(b):
    """two inputs, two outputs (sum and product)"""
    a, c = b.input([1, 4], name="a"), b.input([1, 4], name="b")
    b.output(b.node("Add", [a, c], outputs=["sum"]), b.node("Mul", [a, c], outputs=["prod"]))


@model("output_reshape_of_intermediate")
def _(b):
    """an output that is a Reshape of an intermediate also used by another node"""
    h = b.node("Relu", [b.input([1, 2, 3, 4])])
    flat = b.node("Reshape", [h, b.const([1, 24])], outputs=["flat"])
    b.output(flat, b.node("Sigmoid", [h], outputs=["sig"]))


@model("output_also_consumed")
def _(b):
    """an output that is also consumed by another node"""
    h = b.node("Relu", [b.input([2, 6])], outputs=["relu_out"])
    b.output(h, b.node("Mul", [h, b.weight([6], scale=1.0)], outputs=["scaled"]))


@model("shared_weights", opset=11)
def _(b):
    """one initializer used by two Convs, one input used by two branches"""
    x = b.input([1, 3, 5, 5])
    w, bias = b.weight([3, 3, 3, 3]), b.bias(3)
    y1 = b.node("Conv", [x, w, bias], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    y2 = b.node("Conv", [b.node("Relu", [x]), w, bias], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b.output(b.node("Add", [y1, y2]))


@model("hostile_names")
def _(b):
    """C keywords, empty node names, spaces/dots/slashes/unicode and colliding names"""
    x = b.input([1, 2, 4, 4], name="int")
    y = b.input([1, 3, 4, 4], name="input with spaces.and/dots")
    w1 = b.weight([3, 2, 3, 3], name="weight.0/a b")
    w2 = b.weight([3, 3, 1, 1], name="weight_0_a_b")        # collides with w1 after sanitizing
    c1 = b.node("Conv", [x, w1, b.bias(3, name="0starts_with_digit")], outputs=["return"],
                name="while", kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    c2 = b.node("Conv", [y, w2], outputs=["return_"], name="", kernel_shape=[1, 1])
    s = b.node("Add", [c1, c2], outputs=["größe €"], name="")
    r = b.node("Relu", [s], outputs=["main"], name="node/with/slashes")
    t = b.node("Sigmoid", [s], outputs=["NULL"], name="ノード")
    u = b.node("Mul", [r, t], outputs=["a-b"], name="static")
    v = b.node("Add", [u, b.const(np.float32(0.5), name="a_b")], outputs=["a.b"], name="a_b")
    b.output(v, b.node("Tanh", [s], outputs=["return value"], name="return"))


@model("hostile_long_name")
def _(b):
    """300-character names, two of them equal in their first 299 characters"""
    long = ("very_long_tensor_name_" * 14)[:299]
    assert len(long) == 299
    x = b.input([2, 3], name=long + "x")
    h = b.node("Relu", [x], outputs=[long + "y"], name="node_" + "n" * 295)
    b.output(b.node("Sigmoid", [h], outputs=[long + "z"], name="m" * 300))


@model("hostile_raw_names")
def _(b):
    """non-UTF-8 names (stray bytes, overlong '/', surrogate) with NUL, '*/', '??/', quotes, backslashes"""
    x = b.input([2, 3], name=b.raw_name(b"in\xff\xfe*/??/"))
    h = b.node("Relu", [x], outputs=[b.raw_name(b"t\xc0\xaf\x00\"*/")], name=b.raw_name(b"n\xed\xa0\x80\\"))
    g = b.node("Sigmoid", [h], outputs=[b.raw_name(b"t\xc0\xaf\x00\"*\\")], name=b.raw_name(b"\x00\x00\x00\x00"))
    b.output(b.node("Add", [h, g], outputs=[b.raw_name(b"out\x80\x80\x01\n")], name=b.raw_name(b"\x00\x00\x00\x01")))


# ---------------------------------------------------------------------------
# Small networks
# ---------------------------------------------------------------------------

@model("cnn_small")
def _(b):
    """conv-bn-relu-maxpool-conv-relu-globalavgpool-flatten-gemm-softmax"""
    x = b.input([1, 3, 16, 16])
    x = b.node("Conv", [x, b.weight([8, 3, 3, 3]), b.bias(8)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    x = b.node("Relu", [b.bn(x, 8)])
    x = b.node("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2])
    x = b.node("Conv", [x, b.weight([16, 8, 3, 3]), b.bias(16)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    x = b.node("Relu", [x])
    x = b.node("Flatten", [b.node("GlobalAveragePool", [x])])
    x = b.node("Gemm", [x, b.weight([10, 16]), b.bias(10)], transB=1)
    b.output(b.node("Softmax", [x], axis=1))


@model("residual_block", opset=11)
def _(b):
    """conv-relu-conv + skip Add + relu"""
    x = b.input([1, 8, 6, 6])
    h = b.node("Conv", [x, b.weight([8, 8, 3, 3]), b.bias(8)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    h = b.node("Relu", [h])
    h = b.node("Conv", [h, b.weight([8, 8, 3, 3]), b.bias(8)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b.output(b.node("Relu", [b.node("Add", [h, x])]))


@model("unet_block", opset=17)
def _(b):
    """conv-relu, maxpool, conv-relu, ConvTranspose up, Concat skip, conv"""
    x = b.input([1, 3, 8, 8])
    e = b.node("Conv", [x, b.weight([4, 3, 3, 3]), b.bias(4)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    e = b.node("Relu", [e])
    d = b.node("MaxPool", [e], kernel_shape=[2, 2], strides=[2, 2])
    d = b.node("Conv", [d, b.weight([8, 4, 3, 3]), b.bias(8)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    d = b.node("Relu", [d])
    u = b.node("ConvTranspose", [d, b.weight([8, 4, 2, 2]), b.bias(4)], kernel_shape=[2, 2],
               strides=[2, 2])
    c = b.node("Concat", [u, e], axis=1)
    b.output(b.node("Conv", [c, b.weight([2, 8, 1, 1]), b.bias(2)], kernel_shape=[1, 1]))


@model("se_block", opset=13)
def _(b):
    """depthwise conv + hardswish (HardSigmoid*x) + squeeze-excite (GAP-conv-relu-conv-HardSigmoid-Mul)"""
    x = b.input([1, 4, 6, 6])
    h = b.node("Conv", [x, b.weight([4, 1, 3, 3]), b.bias(4)], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
               group=4)
    h = b.node("Mul", [h, b.node("HardSigmoid", [h], alpha=1.0 / 6.0, beta=0.5)])  # hardswish, opset 13
    s = b.node("GlobalAveragePool", [h])
    s = b.node("Relu", [b.node("Conv", [s, b.weight([2, 4, 1, 1]), b.bias(2)], kernel_shape=[1, 1])])
    s = b.node("Conv", [s, b.weight([4, 2, 1, 1]), b.bias(4)], kernel_shape=[1, 1])
    s = b.node("HardSigmoid", [s], alpha=1.0 / 6.0, beta=0.5)
    b.output(b.node("Mul", [h, s]))


# ---------------------------------------------------------------------------
# Channels-last layout (--layout=nhwc): convolution stacks whose activations
# are stored NHWC, convolutions writing over their dying input row by row
# ---------------------------------------------------------------------------

@model("nhwc_conv_stack")
def _(b):
    """Conv stack for --layout=nhwc: strides, asymmetric pads, dilation, 1x1, 5x3, Add + Clip"""
    x = b.input([1, 3, 11, 10])
    h = b.node("Relu", [b.node("Conv", [x, b.weight([8, 3, 3, 3]), b.bias(8)], kernel_shape=[3, 3],
                               pads=[1, 1, 1, 1])])                               # 8 x 11x10
    h = b.node("Relu", [b.node("Conv", [h, b.weight([8, 8, 3, 3]), b.bias(8)], kernel_shape=[3, 3],
                               strides=[2, 2], pads=[1, 0, 1, 1])])               # 8 x 6x5
    d = b.node("Conv", [h, b.weight([8, 8, 3, 3]), b.bias(8)], kernel_shape=[3, 3],
               dilations=[2, 2], pads=[2, 2, 2, 2])                               # 8 x 6x5
    s = b.node("Conv", [h, b.weight([8, 8, 1, 1]), b.bias(8)], kernel_shape=[1, 1])
    a = b.node("Clip", [b.node("Add", [d, s]), b.const(np.float32(0.0)), b.const(np.float32(6.0))])
    b.output(b.node("Conv", [a, b.weight([4, 8, 5, 3])], kernel_shape=[5, 3], pads=[2, 1, 2, 1]))


@model("nhwc_conv_batch2", opset=11)
def _(b):
    """Conv stack on a batch of 2 for --layout=nhwc, ending in a global average pool"""
    x = b.input([2, 4, 9, 9])
    h = b.node("Relu", [b.node("Conv", [x, b.weight([6, 4, 3, 3]), b.bias(6)], kernel_shape=[3, 3],
                               pads=[1, 1, 1, 1])])
    h = b.node("Conv", [h, b.weight([6, 6, 3, 3]), b.bias(6)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    h = b.node("Conv", [h, b.weight([5, 6, 4, 4]), b.bias(5)], kernel_shape=[4, 4], strides=[2, 2],
               pads=[1, 1, 2, 2])
    b.output(b.node("GlobalAveragePool", [h]))


# ---------------------------------------------------------------------------
# Selective recompute (--recompute=on): two where it pays, two where it must not
# change anything
# ---------------------------------------------------------------------------

def conv3x3(b, x, c_in, c_out, relu=True, stride=1):
    y = b.node("Conv", [x, b.weight([c_out, c_in, 3, 3]), b.bias(c_out)], kernel_shape=[3, 3],
               pads=[1, 1, 1, 1], strides=[stride, stride])
    return b.node("Relu", [y]) if relu else y


@model("recompute_wide_stem")
def _(b):
    """wide Relu(x) read first and again after a conv stack: one cheap op away from the input"""
    x = b.input([1, 16, 24, 24])
    a = b.node("Relu", [x])
    h = conv3x3(b, conv3x3(b, conv3x3(b, a, 16, 16), 16, 16), 16, 16, relu=False)
    b.output(b.node("Add", [h, a]))


@model("recompute_unet")
def _(b):
    """U-Net whose skips are cheap: Relu of the input (full size) and its 2x2 average pool"""
    x = b.input([1, 4, 32, 32])
    skip0 = b.node("Relu", [x])
    skip1 = b.node("AveragePool", [x], kernel_shape=[2, 2], strides=[2, 2])
    e = conv3x3(b, conv3x3(b, skip0, 4, 16, stride=2), 16, 16)           # 16 x 16x16
    m = b.node("MaxPool", [e], kernel_shape=[2, 2], strides=[2, 2])       # 16 x 8x8
    m = conv3x3(b, conv3x3(b, m, 16, 32), 32, 32)                          # 32 x 8x8
    u = b.node("ConvTranspose", [m, b.weight([32, 16, 2, 2]), b.bias(16)], kernel_shape=[2, 2],
               strides=[2, 2])                                             # 16 x 16x16
    d = conv3x3(b, b.node("Concat", [u, skip1], axis=1), 20, 16)         # 16 x 16x16
    d = conv3x3(b, d, 16, 16)
    u = b.node("ConvTranspose", [d, b.weight([16, 8, 2, 2]), b.bias(8)], kernel_shape=[2, 2],
               strides=[2, 2])                                             # 8 x 32x32
    d = b.node("Concat", [u, skip0], axis=1)                             # 12 x 32x32
    b.output(b.node("Conv", [d, b.weight([2, 12, 1, 1]), b.bias(2)], kernel_shape=[1, 1]))


@model("inception_pool_branch")
def _(b):
    """inception block whose pooling branch (the concat's last slice, run first) is copied in"""
    x = b.input([1, 3, 24, 24])
    s = conv3x3(b, conv3x3(b, x, 3, 8, stride=2), 8, 16)                 # 16 x 12x12
    b1 = b.node("Relu", [b.node("Conv", [s, b.weight([8, 16, 1, 1]), b.bias(8)], kernel_shape=[1, 1])])
    b2 = b.node("Relu", [b.node("Conv", [s, b.weight([8, 16, 1, 1]), b.bias(8)], kernel_shape=[1, 1])])
    b2 = conv3x3(b, b2, 8, 12)
    b3 = b.node("Relu", [b.node("Conv", [s, b.weight([4, 16, 1, 1]), b.bias(4)], kernel_shape=[1, 1])])
    b3 = conv3x3(b, conv3x3(b, b3, 4, 6), 6, 6)
    b4 = b.node("MaxPool", [s], kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1])
    b4 = b.node("Relu", [b.node("Conv", [b4, b.weight([6, 16, 1, 1]), b.bias(6)], kernel_shape=[1, 1])])
    c = b.node("Concat", [b1, b2, b3, b4], axis=1)                       # 32 x 12x12
    b.output(b.node("Conv", [c, b.weight([4, 32, 1, 1]), b.bias(4)], kernel_shape=[1, 1]))


@model("speech_concat_1d")
def _(b):
    """1-D conv blocks over time concatenating a 1x1 branch and a max-pooled one"""
    x = b.input([1, 16, 64])
    h = b.node("Relu", [b.node("Conv", [x, b.weight([16, 16, 3]), b.bias(16)], kernel_shape=[3], pads=[1, 1])])
    for _ in range(3):
        a = b.node("Relu", [b.node("Conv", [h, b.weight([8, 16, 1]), b.bias(8)], kernel_shape=[1])])
        p = b.node("MaxPool", [h], kernel_shape=[3], strides=[1], pads=[1, 1])
        p = b.node("Relu", [b.node("Conv", [p, b.weight([8, 16, 1]), b.bias(8)], kernel_shape=[1])])
        h = b.node("Concat", [a, p], axis=1)
    b.output(b.node("Conv", [h, b.weight([4, 16, 1]), b.bias(4)], kernel_shape=[1]))


@model("nhwc_chain_skip")
def _(b):
    """NHWC conv chain whose second output is added back: one overlap contract left out pays"""
    x = b.input([1, 8, 16, 16])
    h, skip = x, None
    for i, k in enumerate([3, 1, 3, 1, 3]):
        h = b.node("Relu", [b.node("Conv", [h, b.weight([8, 8, k, k]), b.bias(8)], kernel_shape=[k, k],
                                   pads=[k // 2] * 4)])
        if i == 1:
            skip = h
    h = b.node("Add", [h, skip])
    b.output(b.node("Conv", [h, b.weight([2, 8, 1, 1]), b.bias(2)], kernel_shape=[1, 1]))


@model("recompute_costly_skip")
def _(b):
    """residual whose skip is a 3x3 conv output: recomputing it costs far more than 1% MACs"""
    x = b.input([1, 8, 16, 16])
    e = conv3x3(b, x, 8, 16)
    h = conv3x3(b, conv3x3(b, e, 16, 16), 16, 16, relu=False)
    b.output(b.node("Add", [h, e]))


@model("recompute_chain")
def _(b):
    """a plain chain (conv-relu-pool-conv-relu): no buffer is idle at the peak"""
    x = b.input([1, 4, 16, 16])
    h = b.node("MaxPool", [conv3x3(b, x, 4, 8)], kernel_shape=[2, 2], strides=[2, 2])
    b.output(conv3x3(b, h, 8, 8))


# ---------------------------------------------------------------------------
# Running ONNX Runtime and writing the files
# ---------------------------------------------------------------------------

def onnx_to_np(elem_type):
    return np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type])


def run_ort(model_path, feeds, out_dtypes):
    """Run scripts/ort_run.js; return one numpy array per graph output."""
    with tempfile.TemporaryDirectory(prefix="onnx2c_gen_") as tmp:
        ins = []
        for i, arr in enumerate(feeds):
            p = os.path.join(tmp, f"in{i}.bin")
            np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tofile(p)
            ins.append(p)
        outs = [os.path.join(tmp, f"out{i}.bin") for i in range(len(out_dtypes))]
        proc = subprocess.run(["node", str(ORT_RUN), "--shapes", str(model_path)] + ins + outs,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"ort_run.js failed on {model_path}: {proc.stderr.strip()}")
        shapes = json.loads(proc.stdout.strip().split("shapes=", 1)[1])
        return [np.fromfile(path, dtype=dtype.newbyteorder("<")).astype(dtype).reshape(shape)
                for path, dtype, shape in zip(outs, out_dtypes, shapes)]


def set_output_shape(vi, shape):
    """Give graph output `vi` the shape ORT produced (checking any inferred one)."""
    t = vi.type.tensor_type
    if t.HasField("shape") and all(d.HasField("dim_value") for d in t.shape.dim):
        inferred = [d.dim_value for d in t.shape.dim]
        if inferred != list(shape):
            raise RuntimeError(f"output {vi.name}: ORT shape {list(shape)}, inferred {inferred}")
    t.ClearField("shape")
    t.shape.SetInParent()  # a scalar still gets an (empty) shape
    for d in shape:
        t.shape.dim.add().dim_value = d


def write_test_data(ddir, input_infos, inputs, output_infos, outputs):
    """test_data_set files: input_<i>.pb and output_<i>.pb, named after the graph's values."""
    for i, (vi, arr) in enumerate(zip(input_infos, inputs)):
        (ddir / f"input_{i}.pb").write_bytes(numpy_helper.from_array(arr, vi.name).SerializeToString())
    for i, (vi, arr) in enumerate(zip(output_infos, outputs)):
        (ddir / f"output_{i}.pb").write_bytes(numpy_helper.from_array(arr, vi.name).SerializeToString())


def generate_model(name, out_dir):
    fn, opset = MODELS[name]
    if hasattr(fn, "write_model"):  # generate_modern.py: opsets and IR versions python-onnx 1.12 cannot check
        return fn.write_model(name, out_dir)
    b = Builder(name, opset)
    fn(b)
    m = b.build(fn.__doc__.strip())

    mdir = out_dir / getattr(fn, "subdir", "") / name  # subdir: out of the folders the suites walk
    if mdir.exists():
        shutil.rmtree(mdir)
    ddir = mdir / "test_data_set_0"
    ddir.mkdir(parents=True)
    path = mdir / "model.onnx"
    onnx.save(m, str(path))
    dtypes = [onnx_to_np(o.type.tensor_type.elem_type) for o in m.graph.output]
    outputs = run_ort(path, b.feeds, dtypes)
    for vi, arr in zip(m.graph.output, outputs):
        set_output_shape(vi, arr.shape)
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, str(path))
    if b.raw_names:
        data = path.read_bytes()
        for placeholder, raw in b.raw_names.items():
            assert data.count(placeholder.encode()) >= 1, placeholder
            data = data.replace(placeholder.encode(), raw)
        path.write_bytes(data)

    write_test_data(ddir, b.inputs, b.feeds, m.graph.output, outputs)  # initializer-backed inputs excluded

    ops = sorted({n.op_type for n in m.graph.node})
    return f"{name}\t{opset}\t{','.join(ops)}\t{m.doc_string}"


# ---------------------------------------------------------------------------

def setup_ort(ort_dir):
    if ort_dir:
        subprocess.run(["bash", str(INSTALL_ORT), ort_dir], check=True)
        os.environ["ONNX_TO_C_ORT_DIR"] = os.path.abspath(ort_dir)
    if not os.environ.get("ONNX_TO_C_ORT_DIR"):
        sys.exit("error: set ONNX_TO_C_ORT_DIR or pass --ort-dir (see scripts/install_ort.sh)")


register_int8_models(model)
register_modern_models(model, Builder, run_ort, write_test_data)
register_keras_models(model)
register_vww_model(model)
register_mobilenet_v2_224(model)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="only these models (default: all, plus bad/ and index.tsv)")
    ap.add_argument("--out", default=str(ROOT / "models"), help="output directory (default: models/)")
    ap.add_argument("--ort-dir", help="install onnxruntime-node here if needed and use it")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--list", action="store_true", help="list the model names and exit")
    args = ap.parse_args()

    if args.list:
        print("\n".join(sorted(MODELS)))
        return
    unknown = [n for n in args.names if n not in MODELS]
    if unknown:
        sys.exit(f"error: unknown model(s): {' '.join(unknown)}")
    setup_ort(args.ort_dir)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    names = sorted(args.names or MODELS)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(lambda n: generate_model(n, out_dir), names))
    for row in rows:
        print(row.split("\t")[0])

    if not args.names:
        # Remove generated model directories that no longer exist in this script.
        for d in sorted(out_dir.iterdir()):
            if d.is_dir() and d.name not in MODELS and (d / "model.onnx").exists():
                shutil.rmtree(d)
        header = "# name\topset\tops\tdescription\n"
        (out_dir / "index.tsv").write_text(header + "\n".join(rows) + "\n")
        generate_bad(out_dir)
        print(f"{len(rows)} models and bad/ written to {out_dir}")


if __name__ == "__main__":
    main()
