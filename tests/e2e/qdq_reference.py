"""A numpy reference for quantized ONNX models, written from the ONNX operator definitions.

evaluate(model, {input name: array}, names) returns the values of `names`. Each value is computed
on demand, node by node:
  * a QuantizeLinear whose input comes from Conv, Gemm, MatMul, Mul or GlobalAveragePool (a Relu or
    Clip between them allowed), every input of that op a DequantizeLinear of an 8-bit tensor (and
    an int32 bias of zero point 0), is evaluated as the integer operator, as QLinearConv and
    QLinearMatMul define it: int32 accumulation of (x - x_zp) * (w - w_zp) plus the bias, then
    requantized ("float" requantization: the float32 multiplier (x_scale * w_scale[c]) / y_scale
    computed in float32 in that order, the accumulator converted to float32 and multiplied in
    float32, rounded half to even, plus the zero point, saturated). A fused Relu or Clip saturates
    at the quantized bounds (QuantizeLinear is monotonic, so this equals quantizing the clipped
    float). Mul: the int32 product of the two inputs less their zero points, multiplier
    (a_scale * b_scale) / y_scale. GlobalAveragePool: the int32 sum of the window, multiplier
    (x_scale / size) / y_scale;
  * QLinearConv and QLinearMatMul are evaluated the same way;
  * everything else follows the ONNX float definitions in float32: DequantizeLinear
    (x - zp) * scale, QuantizeLinear saturate(round_half_even(x / scale) + zp), Add (as
    QLinearAdd: both inputs dequantized and added in float32), AveragePool (the window summed in
    float32 in row-major order, divided by the count), MaxPool, Concat, Reshape, Flatten, Relu,
    Clip, Softmax, float Conv and Gemm.
Nothing here reads onnx-to-c's code: it is an independent check of its 8-bit kernels.
"""
import sys

import numpy as np
from onnx import numpy_helper

F32 = np.float32


class Unsupported(Exception):
    pass


def _attrs(node):
    out = {}
    for a in node.attribute:
        if a.type == a.INT:
            out[a.name] = a.i
        elif a.type == a.FLOAT:
            out[a.name] = F32(a.f)
        elif a.type == a.INTS:
            out[a.name] = list(a.ints)
        elif a.type == a.STRING:
            out[a.name] = a.s.decode()
    return out


def _bounds(dtype):
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def dequantize(q, scale, zp, axis=1):
    scale = np.asarray(scale, F32)
    zp = np.zeros_like(scale, dtype=np.int32) if zp is None else np.asarray(zp).astype(np.int32)
    if scale.size > 1:  # per axis
        shape = [1] * q.ndim
        shape[axis] = scale.size
        scale, zp = scale.reshape(shape), zp.reshape(shape)
    return (q.astype(np.int32) - zp).astype(F32) * scale


def quantize(x, scale, zp, dtype):
    lo, hi = _bounds(dtype)
    v = np.rint(np.asarray(x, F32) / F32(scale)) + F32(int(zp))
    v = np.where(np.isnan(v), F32(int(zp)), v)
    return np.clip(v, lo, hi).astype(dtype)


def requantize(acc, mult, zp, lo, hi, dtype):
    """acc (int32, channels along axis 1 when mult has one per channel) to 8 bits."""
    mult = np.asarray(mult, F32)
    if mult.size > 1:
        mult = mult.reshape([1, -1] + [1] * (acc.ndim - 2))
    v = np.rint(acc.astype(np.int32).astype(F32) * mult) + F32(zp)
    return np.clip(v, lo, hi).astype(dtype)


def _wrap_i32(acc):
    """int64 sums as int32 arithmetic (wrap-around) would leave them."""
    return ((acc.astype(np.int64) + 2**31) % 2**32 - 2**31).astype(np.int32)


def _conv_geometry(x_shape, w_shape, at):
    if at.get("auto_pad", "NOTSET") not in ("NOTSET", "VALID"):
        raise Unsupported(f"Conv auto_pad {at['auto_pad']}")
    nd = len(x_shape) - 2
    strides = at.get("strides", [1] * nd)
    dil = at.get("dilations", [1] * nd)
    pads = at.get("pads", [0] * (2 * nd))
    out = [(x_shape[2 + i] + pads[i] + pads[nd + i] - dil[i] * (w_shape[2 + i] - 1) - 1) //
           strides[i] + 1 for i in range(nd)]
    return nd, strides, dil, pads, out


def _columns(x, w_shape, at, pad_value):
    """im2col: [N, C * prod(kernel), prod(out)] (the weight's element order)."""
    nd, strides, dil, pads, out = _conv_geometry(x.shape, w_shape, at)
    width = [(0, 0), (0, 0)] + [(pads[i], pads[nd + i]) for i in range(nd)]
    xp = np.pad(x, width, constant_values=pad_value)
    kernel = w_shape[2:]
    cols = []
    for k in np.ndindex(*kernel):
        sl = tuple(slice(k[i] * dil[i], k[i] * dil[i] + (out[i] - 1) * strides[i] + 1, strides[i])
                   for i in range(nd))
        cols.append(xp[(slice(None), slice(None)) + sl])
    c = np.stack(cols, axis=2)  # N, C, K, *out
    return c.reshape(x.shape[0], x.shape[1] * int(np.prod(kernel)), -1), out


def integer_conv(x, x_zp, w, w_zp, bias, at):
    """The int32 accumulator of QLinearConv / ConvInteger plus the bias: [N, M, *out]."""
    group = at.get("group", 1)
    m = w.shape[0]
    xs = x.astype(np.int64) - int(x_zp)
    wz = np.asarray(w_zp).astype(np.int64).reshape(-1)
    ws = w.astype(np.int64) - (wz.reshape([-1] + [1] * (w.ndim - 1)) if wz.size > 1 else wz[0])
    cols, out = _columns(xs, w.shape, at, 0)  # padding reads as the zero point: 0 after the shift
    mg = m // group
    kc = cols.shape[1] // group
    acc = np.empty((x.shape[0], m, cols.shape[2]), np.int64)
    for g in range(group):
        wg = ws[g * mg:(g + 1) * mg].reshape(mg, -1)
        acc[:, g * mg:(g + 1) * mg] = np.matmul(wg, cols[:, g * kc:(g + 1) * kc])
    if bias is not None:
        acc += bias.astype(np.int64).reshape(1, -1, 1)
    return _wrap_i32(acc.reshape((x.shape[0], m) + tuple(out)))


def float_conv(x, w, b, at):
    group = at.get("group", 1)
    cols, out = _columns(x.astype(F32), w.shape, at, F32(0))
    m = w.shape[0]
    mg, kc = m // group, cols.shape[1] // group
    y = np.empty((x.shape[0], m, cols.shape[2]), F32)
    for g in range(group):
        wg = w[g * mg:(g + 1) * mg].reshape(mg, -1).astype(F32)
        y[:, g * mg:(g + 1) * mg] = np.matmul(wg, cols[:, g * kc:(g + 1) * kc])
    if b is not None:
        y += b.astype(F32).reshape(1, -1, 1)
    return y.reshape((x.shape[0], m) + tuple(out))


def average_pool(x, at):
    """AveragePool in float32: each window summed in row-major order, divided by the count."""
    kernel = at["kernel_shape"]
    if at.get("ceil_mode", 0) or at.get("auto_pad", "NOTSET") not in ("NOTSET", "VALID"):
        raise Unsupported("AveragePool ceil_mode / auto_pad")
    window = (1, 1) + tuple(kernel)
    ones = np.ones(x.shape, F32)
    cols, out = _columns(x.astype(F32), window, at, F32(0))
    valid, _ = _columns(ones, window, at, F32(0))
    k = int(np.prod(kernel))
    cols = cols.reshape(x.shape[0], x.shape[1], k, -1)
    valid = valid.reshape(x.shape[0], x.shape[1], k, -1)
    total = np.zeros((x.shape[0], x.shape[1], cols.shape[3]), F32)
    for i in range(k):  # sequential float32 sum, the window's row-major order
        total = total + cols[:, :, i]
    count = F32(k) if at.get("count_include_pad", 0) else valid.sum(axis=2).astype(F32)
    return (total / count).reshape(x.shape[:2] + tuple(out))


def max_pool(x, at):
    kernel = at["kernel_shape"]
    if at.get("ceil_mode", 0) or at.get("auto_pad", "NOTSET") not in ("NOTSET", "VALID"):
        raise Unsupported("MaxPool ceil_mode / auto_pad")
    cols, out = _columns(x, (1, 1) + tuple(kernel), at, -np.inf)
    k = int(np.prod(kernel))
    return cols.reshape(x.shape[0], x.shape[1], k, -1).max(axis=2).reshape(x.shape[:2] + tuple(out))


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return (e / e.sum(axis=axis, keepdims=True)).astype(F32)


class Reference:
    def __init__(self, model, feeds):
        g = model.graph
        self.values = {t.name: numpy_helper.to_array(t) for t in g.initializer}
        self.values.update(feeds)
        self.producer = {o: n for n in g.node for o in n.output}
        self.users = {}
        for n in g.node:
            for i in n.input:
                self.users.setdefault(i, []).append(n)
        self.outputs = {o.name for o in g.output}

    def get(self, name):
        if name == "":
            return None
        if name not in self.values:
            node = self.producer[name]
            results = self.run_node(node)
            for o, v in zip(node.output, results):
                self.values[o] = v
        return self.values[name]

    def evaluate(self, names):
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
        return [self.get(n) for n in names]

    # --- the integer groups -------------------------------------------------------------------

    def dequantized(self, name, bias=False):
        """(q, scale, zp) when `name` is a DequantizeLinear of an 8-bit (int32 for a bias with zero
        point 0) constant-quantized tensor, else None."""
        n = self.producer.get(name)
        if n is None or n.op_type != "DequantizeLinear":
            return None
        q = self.get(n.input[0])
        zp = self.get(n.input[2]) if len(n.input) > 2 else None
        if bias:
            ok = q.dtype == np.int32 and (zp is None or not np.any(zp))
        else:
            ok = q.dtype in (np.int8, np.uint8)
        return (q, np.asarray(self.get(n.input[1]), F32), 0 if zp is None else zp) if ok else None

    def integer_group(self, qnode):
        """The QuantizeLinear `qnode` evaluated as an integer operator, or None."""
        y_scale = np.asarray(self.get(qnode.input[1]), F32)
        y_zp = self.get(qnode.input[2]) if len(qnode.input) > 2 else np.uint8(0)
        if y_scale.size != 1:
            return None
        y_scale, dtype = F32(y_scale.reshape(-1)[0]), np.asarray(y_zp).dtype
        y_zp = int(np.asarray(y_zp).reshape(-1)[0])
        lo, hi = _bounds(dtype)
        op = self.producer.get(qnode.input[0])
        if op is not None and op.op_type in ("Relu", "Clip"):
            inner = self.producer.get(op.input[0])
            if inner is None or not self.single_use(op.input[0]):
                return None
            if op.op_type == "Relu":
                lo = max(lo, y_zp)
            else:
                at = _attrs(op)
                lo_f = self.get(op.input[1]) if len(op.input) > 1 and op.input[1] else at.get("min")
                hi_f = self.get(op.input[2]) if len(op.input) > 2 and op.input[2] else at.get("max")
                if lo_f is not None:
                    lo = max(lo, int(quantize(lo_f, y_scale, y_zp, dtype)))
                if hi_f is not None:
                    hi = min(hi, int(quantize(hi_f, y_scale, y_zp, dtype)))
            op = inner
        if op is None:
            return None
        at = _attrs(op)
        if op.op_type == "Conv":
            x, w = self.dequantized(op.input[0]), self.dequantized(op.input[1])
            b = self.dequantized(op.input[2], bias=True) if len(op.input) > 2 else None
            if x is None or w is None or x[1].size != 1 or (len(op.input) > 2 and b is None):
                return None
            acc = integer_conv(x[0], _scalar(x[2]), w[0], w[2], None if b is None else b[0], at)
            mult = (F32(x[1].reshape(-1)[0]) * w[1].reshape(-1)) / y_scale
            return requantize(acc, mult, y_zp, lo, hi, dtype)
        if op.op_type in ("Gemm", "MatMul"):
            a, b = self.dequantized(op.input[0]), self.dequantized(op.input[1])
            c = self.dequantized(op.input[2], bias=True) if len(op.input) > 2 else None
            if a is None or b is None or a[1].size != 1 or (len(op.input) > 2 and c is None):
                return None
            if at.get("transA", 0) or at.get("alpha", 1.0) != 1.0 or at.get("beta", 1.0) != 1.0:
                return None
            bq, bzp = b[0], np.asarray(b[2])
            if at.get("transB", 0):
                bq = bq.T
            acc = integer_matmul(a[0], _scalar(a[2]), bq, bzp, None if c is None else c[0])
            mult = (F32(a[1].reshape(-1)[0]) * b[1].reshape(-1)) / y_scale
            return requantize_last(acc, mult, y_zp, lo, hi, dtype)
        if op.op_type == "Mul":
            a, b = self.dequantized(op.input[0]), self.dequantized(op.input[1])
            if a is None or b is None or a[1].size != 1 or b[1].size != 1:
                return None
            acc = _wrap_i32((a[0].astype(np.int64) - _scalar(a[2])) *
                            (b[0].astype(np.int64) - _scalar(b[2])))
            mult = (F32(a[1].reshape(-1)[0]) * F32(b[1].reshape(-1)[0])) / y_scale
            return requantize(acc, mult, y_zp, lo, hi, dtype)
        if op.op_type == "GlobalAveragePool":
            x = self.dequantized(op.input[0])
            if x is None or x[1].size != 1:
                return None
            size = int(np.prod(x[0].shape[2:]))
            acc = _wrap_i32((x[0].astype(np.int64) - _scalar(x[2])).reshape(
                x[0].shape[:2] + (-1,)).sum(axis=2)).reshape(x[0].shape[:2] + (1,) * (x[0].ndim - 2))
            mult = (F32(x[1].reshape(-1)[0]) / F32(size)) / y_scale
            return requantize(acc, mult, y_zp, lo, hi, dtype)
        return None

    def single_use(self, name):
        return len(self.users.get(name, [])) == 1 and name not in self.outputs

    # --- node by node -------------------------------------------------------------------------

    def run_node(self, n):
        at = _attrs(n)
        op = n.op_type
        if op == "QuantizeLinear":
            group = self.integer_group(n)
            if group is not None:
                return [group]
            x = self.get(n.input[0])
            scale = np.asarray(self.get(n.input[1]), F32)
            zp = self.get(n.input[2]) if len(n.input) > 2 else np.uint8(0)
            if scale.size != 1:
                raise Unsupported("per-axis QuantizeLinear")
            return [quantize(x, scale.reshape(-1)[0], np.asarray(zp).reshape(-1)[0],
                             np.asarray(zp).dtype)]
        if op == "DequantizeLinear":
            zp = self.get(n.input[2]) if len(n.input) > 2 else None
            return [dequantize(self.get(n.input[0]), self.get(n.input[1]), zp, at.get("axis", 1))]
        if op in ("QLinearConv", "QLinearMatMul"):
            return [self.qlinear(n, at)]
        ins = [self.get(i) for i in n.input]
        if op == "Conv":
            return [float_conv(ins[0], ins[1], ins[2] if len(ins) > 2 else None, at)]
        if op == "Gemm":
            a = ins[0].T if at.get("transA", 0) else ins[0]
            b = ins[1].T if at.get("transB", 0) else ins[1]
            y = F32(at.get("alpha", 1.0)) * np.matmul(a, b).astype(F32)
            if len(ins) > 2 and ins[2] is not None:
                y = y + F32(at.get("beta", 1.0)) * ins[2]
            return [y.astype(F32)]
        if op == "MatMul":
            return [np.matmul(ins[0], ins[1]).astype(F32)]
        if op in ("Add", "Mul"):
            return [(ins[0] + ins[1]) if op == "Add" else (ins[0] * ins[1])]
        if op == "Relu":
            return [np.maximum(ins[0], F32(0))]
        if op == "Clip":
            lo = ins[1] if len(ins) > 1 and ins[1] is not None else at.get("min", -np.inf)
            hi = ins[2] if len(ins) > 2 and ins[2] is not None else at.get("max", np.inf)
            return [np.clip(ins[0], lo, hi).astype(ins[0].dtype)]
        if op == "AveragePool":
            return [average_pool(ins[0], at)]
        if op == "GlobalAveragePool":
            x = ins[0]
            return [x.reshape(x.shape[:2] + (-1,)).mean(axis=2, dtype=F32).reshape(
                x.shape[:2] + (1,) * (x.ndim - 2))]
        if op == "MaxPool":
            return [max_pool(ins[0], at)]
        if op == "Concat":
            return [np.concatenate(ins, axis=at["axis"])]
        if op == "Flatten":
            axis = at.get("axis", 1) % max(ins[0].ndim, 1)
            return [ins[0].reshape(int(np.prod(ins[0].shape[:axis])), -1)]
        if op == "Reshape":
            shape = [d if d != 0 or at.get("allowzero", 0) else ins[0].shape[i]
                     for i, d in enumerate(ins[1].tolist())]
            return [ins[0].reshape(shape)]
        if op == "Softmax":
            return [softmax(ins[0], at.get("axis", -1))]
        raise Unsupported(f"{op} (node {n.name})")

    def qlinear(self, n, at):
        """QLinearConv (x, xs, xzp, w, ws, wzp, ys, yzp, B) and QLinearMatMul (a, as, azp, b, bs,
        bzp, ys, yzp)."""
        ins = [self.get(i) for i in n.input]
        x, xs, xzp, w, ws, wzp, ys, yzp = ins[:8]
        dtype = np.asarray(yzp).dtype
        lo, hi = _bounds(dtype)
        mult = (F32(np.asarray(xs, F32).reshape(-1)[0]) * np.asarray(ws, F32).reshape(-1)) / \
            F32(np.asarray(ys, F32).reshape(-1)[0])
        if n.op_type == "QLinearConv":
            acc = integer_conv(x, _scalar(xzp), w, wzp, ins[8] if len(ins) > 8 else None, at)
            return requantize(acc, mult, _scalar(yzp), lo, hi, dtype)
        acc = integer_matmul(x, _scalar(xzp), w, np.asarray(wzp), None)
        return requantize_last(acc, mult, _scalar(yzp), lo, hi, dtype)


def _scalar(v):
    return int(np.asarray(v).reshape(-1)[0])


def integer_matmul(a, a_zp, b, b_zp, bias):
    """int32 sums of (a - a_zp)[.., k] * (b - b_zp)[k, n] (b_zp per column allowed) plus bias."""
    bz = b_zp.astype(np.int64).reshape(-1)
    acc = np.matmul(a.astype(np.int64) - a_zp, b.astype(np.int64) - (bz if bz.size > 1 else bz[0]))
    if bias is not None:
        acc = acc + bias.astype(np.int64)
    return _wrap_i32(acc)


def requantize_last(acc, mult, zp, lo, hi, dtype):
    """requantize with the channels along the last axis."""
    return np.moveaxis(requantize(np.moveaxis(acc, -1, 1), mult, zp, lo, hi, dtype), 1, -1) \
        if np.asarray(mult).size > 1 else requantize(acc, mult, zp, lo, hi, dtype)


def evaluate(model, feeds, names):
    return Reference(model, feeds).evaluate(names)
