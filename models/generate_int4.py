"""The 4-bit test models of generate.py: QDQ graphs whose weights are ONNX int4 or uint4
(opset 21, two to a byte, the first in the low nibble), mixed with int8 layers, as quantizers
that keep some layers at 4 bits write them (ST's model zoo: *_qdq_w4_..._w8_..._a8_*).

Weights int4 symmetric per output channel (scale max|w| / 7) or uint4 asymmetric per tensor
(scale (max - min) / 15, a zero point in 0..15); biases int32 with scale x_scale * w_scale;
activations int8 or uint8 per tensor. python3-onnx 1.12 knows no INT4, so the initializers
are written as raw TensorProtos and the models go through generate_modern.py's writer.
"""
import numpy as np
import onnx
from onnx import TensorProto as TP

ONNX_UINT4, ONNX_INT4 = 21, 22


def four_bit_tensor(name, values, signed):
    """A TensorProto of ONNX type INT4 or UINT4 holding `values` (integers in range)."""
    values = np.asarray(values, np.int64)
    nibbles = (values.reshape(-1) & 15).astype(np.uint8)
    if len(nibbles) % 2:
        nibbles = np.append(nibbles, np.uint8(0))
    t = onnx.TensorProto()
    t.name = name
    t.data_type = ONNX_INT4 if signed else ONNX_UINT4
    t.dims.extend(values.shape)
    t.raw_data = (nibbles[0::2] | (nibbles[1::2] << 4)).astype(np.uint8).tobytes()
    return t


def register_int4_models(modern, out):
    """Registers the models with generate_modern.py's @modern decorator; `out` declares a
    graph output of a given element type."""

    def int4_weight(b, shape, axis):
        """DequantizeLinear of a symmetric int4 weight per slice along `axis`; its scales."""
        w = b.rng.standard_normal(shape) / np.sqrt(np.prod(shape) / shape[axis])
        red = tuple(d for d in range(len(shape)) if d != axis)
        scale = (np.abs(w).max(axis=red) / 7.0).astype(np.float32)
        bshape = [1] * len(shape)
        bshape[axis] = -1
        q = np.clip(np.round(w / scale.reshape(bshape)), -8, 7)
        wname, zname = b._fresh("w4"), b._fresh("w4_zp")
        b.inits.append(four_bit_tensor(wname, q, True))
        b.inits.append(four_bit_tensor(zname, np.zeros(len(scale)), True))
        return b.node("DequantizeLinear", [wname, b.const(scale), zname], axis=axis), scale

    def uint4_weight(b, shape):
        """DequantizeLinear of an asymmetric uint4 weight, one scale and zero point."""
        w = b.rng.standard_normal(shape) / np.sqrt(np.prod(shape[1:])) + 0.05
        scale = np.float32((w.max() - w.min()) / 15.0)
        zp = int(np.clip(np.round(-w.min() / scale), 0, 15))
        q = np.clip(np.round(w / scale) + zp, 0, 15)
        wname, zname = b._fresh("u4"), b._fresh("u4_zp")
        b.inits.append(four_bit_tensor(wname, q, False))
        b.inits.append(four_bit_tensor(zname, np.array(zp), False))
        return b.node("DequantizeLinear", [wname, b.const(scale), zname]), np.array([scale], np.float32)

    def int8_weight(b, shape):
        """DequantizeLinear of a symmetric int8 weight per output channel (axis 0)."""
        w = b.rng.standard_normal(shape) / np.sqrt(np.prod(shape[1:]))
        scale = (np.abs(w).reshape(shape[0], -1).max(axis=1) / 127.0).astype(np.float32)
        q = np.clip(np.round(w / scale.reshape([-1] + [1] * (len(shape) - 1))), -127, 127).astype(np.int8)
        return b.node("DequantizeLinear", [b.const(q), b.const(scale), b.const(np.zeros(shape[0], np.int8))],
                      axis=0), scale

    def dq_bias(b, x_scale, w_scale, n):
        s = (np.float32(x_scale) * np.broadcast_to(w_scale, [n])).astype(np.float32)
        q = np.round(b.rng.standard_normal(n) * 0.1 / s).astype(np.int32)
        return b.node("DequantizeLinear", [b.const(q, dtype=np.int32), b.const(s),
                                          b.const(np.zeros(n), dtype=np.int32)], axis=0)

    def qdq(b, x, scale, zp, dtype=np.int8):
        """QuantizeLinear then DequantizeLinear with one scale and zero point."""
        s, z = b.const(np.float32(scale)), b.const(np.array(zp, dtype))
        q = b.node("QuantizeLinear", [x, s, z])
        return b.node("DequantizeLinear", [q, s, z]), q

    @modern("int4_qdq_layers", opset=21, ir_version=10)
    def _(b):
        """QDQ with int4/uint4 weights mixed with int8: uint8 input, Conv 3x3+Relu (int4 per channel), depthwise Conv stride 2 (int4), pointwise Conv (uint4 per tensor, zero point), Conv 3x3 (int8), Gemm transB (int4), MatMul (uint4)"""
        x = b.input([1, 4, 10, 10])
        xs = 4.0 / 255
        x, _ = qdq(b, x, xs, 128, np.uint8)
        w, ws = int4_weight(b, [8, 4, 3, 3], 0)
        c = b.node("Relu", [b.node("Conv", [x, w, dq_bias(b, xs, ws, 8)], pads=[1, 1, 1, 1])])
        s1 = 3.0 / 255
        c, _ = qdq(b, c, s1, -128)
        w, ws = int4_weight(b, [8, 1, 3, 3], 0)
        dw = b.node("Conv", [c, w, dq_bias(b, s1, ws, 8)], group=8, pads=[1, 1, 1, 1], strides=[2, 2])
        s2 = 4.0 / 127
        dw, _ = qdq(b, dw, s2, 0)
        w, ws = uint4_weight(b, [12, 8, 1, 1])
        pw = b.node("Conv", [dw, w, dq_bias(b, s2, ws, 12)])
        s3 = 5.0 / 127
        pw, _ = qdq(b, pw, s3, 3)
        w, ws = int8_weight(b, [8, 12, 3, 3])
        c8 = b.node("Conv", [pw, w, dq_bias(b, s3, ws, 8)], pads=[0, 0, 0, 0])
        s4 = 6.0 / 127
        c8, c8_q = qdq(b, c8, s4, -1)
        flat, _ = qdq(b, b.node("Flatten", [c8]), s4, -1)
        w, ws = int4_weight(b, [10, 72], 0)
        g = b.node("Gemm", [flat, w, dq_bias(b, s4, ws, 10)], transB=1)
        s5 = 3.0 / 127
        g, g_q = qdq(b, g, s5, 2)
        w, ws = uint4_weight(b, [10, 7])
        mm = b.node("MatMul", [g, w])
        mm, mm_q = qdq(b, mm, 2.0 / 127, -3)
        out(b, c8_q, TP.INT8)
        out(b, g_q, TP.INT8)
        out(b, mm_q, TP.INT8)
        out(b, mm)

    @modern("int4_qdq_conv1d", opset=21, ir_version=10)
    def _(b):
        """QDQ 1-D: Conv k5 dilation 2 (int4 per channel, int8 input), grouped Conv k3 stride 2 (groups of 4 channels, int4), pointwise Conv (int8)"""
        x = b.input([1, 8, 24])
        xs = 3.0 / 127
        x, _ = qdq(b, x, xs, 0)
        w, ws = int4_weight(b, [12, 8, 5], 0)
        c = b.node("Conv", [x, w, dq_bias(b, xs, ws, 12)], pads=[4, 4], dilations=[2])
        s1 = 4.0 / 127
        c, _ = qdq(b, c, s1, -5)
        w, ws = int4_weight(b, [12, 4, 3], 0)
        gc = b.node("Conv", [c, w, dq_bias(b, s1, ws, 12)], group=3, pads=[1, 1], strides=[2])
        s2 = 5.0 / 127
        gc, _ = qdq(b, gc, s2, 1)
        w, ws = int8_weight(b, [6, 12, 1])
        y = b.node("Conv", [gc, w, dq_bias(b, s2, ws, 6)])
        y, y_q = qdq(b, y, 4.0 / 127, 0)
        out(b, y_q, TP.INT8)

    def blocked_int4_weight(b, shape, axis, block_size):
        """DequantizeLinear-21 of an int4 weight blocked along `axis` (block_size), symmetric."""
        w = b.rng.standard_normal(shape) / np.sqrt(shape[axis])
        blocks = -(-shape[axis] // block_size)
        sshape = list(shape)
        sshape[axis] = blocks
        scale = np.zeros(sshape, np.float32)
        for j in range(blocks):
            part = np.take(w, range(j * block_size, min((j + 1) * block_size, shape[axis])), axis=axis)
            idx = [slice(None)] * len(shape)
            idx[axis] = slice(j, j + 1)
            scale[tuple(idx)] = np.abs(part).max(axis=axis, keepdims=True) / 7.0
        q = np.clip(np.round(w / np.repeat(scale, block_size, axis=axis).take(range(shape[axis]), axis=axis)),
                    -8, 7)
        wname, zname = b._fresh("w4"), b._fresh("w4_zp")
        b.inits.append(four_bit_tensor(wname, q, True))
        b.inits.append(four_bit_tensor(zname, np.zeros(sshape), True))
        return b.node("DequantizeLinear", [wname, b.const(scale), zname], axis=axis, block_size=block_size), scale

    @modern("int4_qdq_blocked", opset=21, ir_version=10)
    def _(b):
        """QDQ with blocked int4 weights (DequantizeLinear-21 block_size): Gemm transB with one block per row (a per-row scale: the 4-bit kernel), MatMul with two blocks per column (evaluated to float weights)"""
        x = b.input([2, 16])
        xs = 3.0 / 127
        x, _ = qdq(b, x, xs, 2)
        w, ws = blocked_int4_weight(b, [6, 16], 1, 16)
        g = b.node("Gemm", [x, w, dq_bias(b, xs, ws.reshape(-1), 6)], transB=1)
        s1 = 2.0 / 127
        g, g_q = qdq(b, g, s1, -4)
        w, _ = blocked_int4_weight(b, [6, 5], 0, 4)
        mm = b.node("MatMul", [g, w])
        mm, mm_q = qdq(b, mm, 2.0 / 127, 1)
        out(b, g_q, TP.INT8)
        out(b, mm_q, TP.INT8)
