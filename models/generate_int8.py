"""The 8-bit test models of generate.py: small quantized graphs in the two formats ONNX
quantizers write, QDQ (QuantizeLinear/DequantizeLinear around float ops) and QOperator
(QLinearConv, QLinearMatMul), with the layer kinds the int8 path lowers.

Weights are int8 per output channel, symmetric (scale max|w| / 127); biases int32 with scale
x_scale * w_scale; activations int8 or uint8 per tensor. The scales are chosen for inputs of about
normal(0, 1), so most values stay in range while some saturate.
"""
import numpy as np


def register_int8_models(model):
    """Registers the models with generate.py's @model decorator."""

    def qconst(b, w, axis):
        """(int8 tensor, scales) of a float weight, symmetric per slice along `axis`."""
        w = np.asarray(w, np.float32)
        red = tuple(d for d in range(w.ndim) if d != axis)
        scale = (np.abs(w).max(axis=red) / 127.0).astype(np.float32)
        shape = [1] * w.ndim
        shape[axis] = -1
        q = np.clip(np.round(w / scale.reshape(shape)), -127, 127).astype(np.int8)
        return q, scale

    def dq_weight(b, shape, axis):
        q, scale = qconst(b, b.rng.standard_normal(shape) / np.sqrt(np.prod(shape) / shape[axis]), axis)
        node = b.node("DequantizeLinear", [b.const(q), b.const(scale), b.const(np.zeros(len(scale), np.int8))],
                      axis=axis)
        return node, scale

    def dq_bias(b, x_scale, w_scale):
        s = (np.float32(x_scale) * w_scale).astype(np.float32)
        q = np.round(b.rng.standard_normal(len(w_scale)) * 0.1 / s).astype(np.int32)
        return b.node("DequantizeLinear", [b.const(q, dtype=np.int32), b.const(s),
                                          b.const(np.zeros(len(s)), dtype=np.int32)],
                      axis=0)

    def qdq(b, x, scale, zp, dtype=np.int8):
        """QuantizeLinear then DequantizeLinear with one scale and zero point."""
        s, z = b.const(np.float32(scale)), b.const(np.array(zp, dtype))
        q = b.node("QuantizeLinear", [x, s, z])
        return b.node("DequantizeLinear", [q, s, z]), q

    @model("int8_qdq_layers")
    def _(b):
        """QDQ int8: uint8 input, Conv+Relu, depthwise and pointwise Conv, residual Add, Mul, AveragePool, GlobalAveragePool, Flatten, Gemm, MatMul"""
        x = b.input([1, 3, 8, 8])
        xs = 4.0 / 255
        x, _ = qdq(b, x, xs, 128, np.uint8)
        w, ws = dq_weight(b, [8, 3, 3, 3], 0)
        c = b.node("Conv", [x, w, dq_bias(b, xs, ws)], pads=[1, 1, 1, 1])
        c = b.node("Relu", [c])
        s1 = 3.0 / 255
        c, _ = qdq(b, c, s1, -128)
        w, ws = dq_weight(b, [8, 1, 3, 3], 0)
        dw = b.node("Conv", [c, w, dq_bias(b, s1, ws)], group=8, pads=[1, 1, 1, 1], strides=[2, 2])
        s2 = 4.0 / 127
        dw, _ = qdq(b, dw, s2, 0)
        w, ws = dq_weight(b, [8, 8, 1, 1], 0)
        pw = b.node("Conv", [dw, w, dq_bias(b, s2, ws)])
        s3 = 5.0 / 127
        pw, _ = qdq(b, pw, s3, 3)
        add, _ = qdq(b, b.node("Add", [pw, dw]), 6.0 / 127, -2)
        mul, _ = qdq(b, b.node("Mul", [add, dw]), 8.0 / 127, 1)
        pool, _ = qdq(b, b.node("AveragePool", [mul], kernel_shape=[2, 2], strides=[2, 2]), 3.0 / 127, 0)
        gap, gap_q = qdq(b, b.node("GlobalAveragePool", [pool]), 2.0 / 127, 0)
        flat, _ = qdq(b, b.node("Flatten", [gap]), 2.0 / 127, 0)
        w, ws = dq_weight(b, [6, 8], 0)
        g = b.node("Gemm", [flat, w, dq_bias(b, 2.0 / 127, ws)], transB=1)
        g, g_q = qdq(b, g, 3.0 / 127, 5)
        w, ws = dq_weight(b, [6, 4], 1)
        r, _ = qdq(b, b.node("Reshape", [g, b.const(np.array([1, 1, 6]))]), 3.0 / 127, 5)
        mm = b.node("MatMul", [r, w])
        mm, mm_q = qdq(b, mm, 2.0 / 127, -3)
        b.output(gap_q, g_q, mm_q, mm)

    @model("int8_qdq_concat_pool")
    def _(b):
        """QDQ int8: MaxPool (same and another output scale), Concat of tensors of three scales (one the output's), 1x1 Conv on the concat"""
        x = b.input([1, 4, 6, 6])
        x, _ = qdq(b, x, 4.0 / 127, 0)
        w, ws = dq_weight(b, [4, 4, 3, 3], 0)
        c, _ = qdq(b, b.node("Conv", [x, w, dq_bias(b, 4.0 / 127, ws)], pads=[1, 1, 1, 1]), 3.0 / 127, -1)
        p1, _ = qdq(b, b.node("MaxPool", [c], kernel_shape=[2, 2], strides=[2, 2]), 3.0 / 127, -1)
        p2, _ = qdq(b, b.node("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
                    5.0 / 127, 2)
        w, ws = dq_weight(b, [2, 4, 1, 1], 0)
        p3, _ = qdq(b, b.node("Conv", [p1, w, dq_bias(b, 3.0 / 127, ws)]), 4.0 / 127, 0)
        cat, cat_q = qdq(b, b.node("Concat", [p1, p2, p3], axis=1), 4.0 / 127, 0)
        w, ws = dq_weight(b, [3, 10, 1, 1], 0)
        y, y_q = qdq(b, b.node("Conv", [cat, w, dq_bias(b, 4.0 / 127, ws)]), 3.0 / 127, 1)
        b.output(cat_q, y_q)

    @model("int8_qoperator_layers")
    def _(b):
        """QOperator uint8: QLinearConv (uint8 x, int8 per-channel w, int32 bias, pads, stride 2) and QLinearMatMul (per-column scales)"""
        x = b.input([1, 4, 7, 7])
        xs, ys = np.float32(4.0 / 255), np.float32(6.0 / 255)
        xz, yz = b.const(np.array(128, np.uint8)), b.const(np.array(124, np.uint8))
        q = b.node("QuantizeLinear", [x, b.const(xs), xz])
        wq, ws = qconst(b, b.rng.standard_normal([6, 4, 3, 3]) / 6.0, 0)
        bias = np.round(b.rng.standard_normal(6) * 0.1 / (xs * ws)).astype(np.int32)
        c = b.node("QLinearConv", [q, b.const(xs), xz, b.const(wq), b.const(ws),
                                   b.const(np.zeros(6, np.int8)), b.const(ys), yz,
                                   b.const(bias, dtype=np.int32)],
                   pads=[1, 1, 1, 1], strides=[2, 2])
        mq, ms = qconst(b, b.rng.standard_normal([4, 5]) / 2.0, 1)
        m = b.node("QLinearMatMul", [c, b.const(ys), yz, b.const(mq), b.const(ms),
                                     b.const(np.zeros(5, np.int8)), b.const(np.float32(8.0 / 255)),
                                     b.const(np.array(130, np.uint8))])
        b.output(c, m)
