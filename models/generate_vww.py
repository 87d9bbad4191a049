"""The MLPerf Tiny visual wake words network (MobileNetV1, alpha 0.25, 96x96x3, 2 classes) with
random weights, quantized as ONNX Runtime's static quantizer writes it by default: QDQ, int8
activations per tensor (asymmetric, min/max calibrated, the range widened to hold 0), int8 weights
symmetric per output channel, int32 biases with scale x_scale * w_scale, and each Relu folded into
its Conv's output zero point of -128. The architecture is the reference's (mlcommons/tiny,
benchmark/training/visual_wake_words/vww_model.py): a 3x3 stride-2 stem of 8 channels, 13
depthwise-separable blocks (3x3 depthwise, 1x1 pointwise; TensorFlow's 'same' padding, so stride 2
pads only bottom and right), a 3x3 AveragePool over the last 3x3, Flatten, a dense layer to 2
classes and Softmax (float, after the last DequantizeLinear, as the quantizer leaves it).
Calibration runs the float network in numpy on the model's own test input (uniform [0, 1), an
image scaled by 1/255).
"""
import numpy as np

# (stride of the depthwise conv, output channels of the pointwise conv) for the 13 blocks.
BLOCKS = [(1, 16), (2, 32), (1, 32), (2, 64), (1, 64), (2, 128)] + [(1, 128)] * 5 + [(2, 256), (1, 256)]


def conv_nchw(x, w, bias, stride, pads, group):
    """Float Conv (N = 1) of x (C, H, W) with w (M, C/group, kh, kw); pads [top, left, bottom, right]."""
    c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh, ow = (xp.shape[1] - kh) // stride + 1, (xp.shape[2] - kw) // stride + 1
    taps = np.stack([xp[:, i:i + stride * oh:stride, j:j + stride * ow:stride]
                     for i in range(kh) for j in range(kw)], axis=1)  # (C, kh*kw, oh, ow)
    mg = m // group
    out = np.empty((m, oh, ow), np.float64)
    for g in range(group):
        cols = taps[g * cg:(g + 1) * cg].reshape(cg * kh * kw, oh * ow)
        out[g * mg:(g + 1) * mg] = (w[g * mg:(g + 1) * mg].reshape(mg, -1) @ cols).reshape(mg, oh, ow)
    return out + bias.reshape(-1, 1, 1)


def activation_params(values):
    """(scale, zero point) of an int8 tensor holding `values`: min/max, the range widened to 0."""
    lo, hi = min(0.0, float(values.min())), max(0.0, float(values.max()))
    scale = np.float32((hi - lo) / 255.0)
    zp = int(np.clip(np.round(-128 - lo / scale), -128, 127))
    return scale, zp


class Network:
    """Builds the QDQ graph while running the float network for calibration."""

    def __init__(self, b, image):
        self.b, self.value = b, image.astype(np.float64)[0]

    def qdq(self, x, scale, zp):
        s, z = self.b.const(np.float32(scale)), self.b.const(np.array(zp, np.int8))
        return self.b.node("DequantizeLinear", [self.b.node("QuantizeLinear", [x, s, z]), s, z])

    def dequantized_weight(self, shape):
        """A He-scaled random weight: its DequantizeLinear node, float values and scales."""
        w = self.b.rng.standard_normal(shape) * np.sqrt(2.0 / np.prod(shape[1:]))
        scale = (np.abs(w).reshape(shape[0], -1).max(axis=1) / 127.0).astype(np.float32)
        q = np.clip(np.round(w / scale.reshape(-1, *[1] * (len(shape) - 1))), -127, 127).astype(np.int8)
        node = self.b.node("DequantizeLinear", [self.b.const(q), self.b.const(scale),
                                                self.b.const(np.zeros(shape[0], np.int8))], axis=0)
        return node, q.astype(np.float64) * scale.reshape(-1, *[1] * (len(shape) - 1)), scale

    def dequantized_bias(self, x_scale, w_scale):
        s = (np.float32(x_scale) * w_scale).astype(np.float32)
        q = np.round(self.b.rng.standard_normal(len(s)) * 0.1 / s).astype(np.int32)
        node = self.b.node("DequantizeLinear", [self.b.const(q, dtype=np.int32), self.b.const(s),
                                                self.b.const(np.zeros(len(s)), dtype=np.int32)], axis=0)
        return node, q.astype(np.float64) * s

    def conv(self, x, x_scale, shape, stride, group, relu=True, relu_max=None):
        """Conv (+ Relu folded into the output's zero point; with relu_max, ReLU6 say, the
        output's range also ends there, so QuantizeLinear's saturation clips) of the QDQ tensor x."""
        w, wf, ws = self.dequantized_weight(shape)
        bias, bf = self.dequantized_bias(x_scale, ws)
        k = shape[2]
        pads = [k // 2] * 4 if stride == 1 else [0, 0, k // 2, k // 2]
        y = self.b.node("Conv", [x, w, bias], kernel_shape=[k, k], strides=[stride, stride],
                        pads=pads, group=group)
        self.value = conv_nchw(self.value, wf, bf, stride, pads, group)
        if relu:
            self.value = np.maximum(self.value, 0.0)
        if relu_max is not None:
            self.value = np.minimum(self.value, relu_max)
        scale, zp = activation_params(self.value)
        return self.qdq(y, scale, zp), scale


def register_vww_model(model):
    """Registers the model with generate.py's @model decorator."""

    @model("int8_vww_96")
    def _(b):
        """QDQ int8 MLPerf Tiny visual wake words: MobileNetV1 0.25 at 96x96x3, 3x3 stride-2 stem, 13 depthwise-separable blocks, AveragePool, Flatten, Gemm to 2 classes, Softmax (random weights, min/max calibrated, 7.49 M MACs)"""
        x = b.input([1, 3, 96, 96], dist="uniform", low=0.0, high=1.0)
        net = Network(b, b.feeds[-1])
        x_scale, x_zp = activation_params(net.value)
        x = net.qdq(x, x_scale, x_zp)
        channels = 8
        x, x_scale = net.conv(x, x_scale, [channels, 3, 3, 3], 2, 1)
        for stride, out_channels in BLOCKS:
            x, x_scale = net.conv(x, x_scale, [channels, 1, 3, 3], stride, channels)
            x, x_scale = net.conv(x, x_scale, [out_channels, channels, 1, 1], 1, 1)
            channels = out_channels
        x = b.node("AveragePool", [x], kernel_shape=[3, 3], strides=[3, 3])
        net.value = net.value.mean(axis=(1, 2))
        pool_scale, pool_zp = activation_params(net.value)
        x = net.qdq(x, pool_scale, pool_zp)
        x = net.qdq(b.node("Flatten", [x]), pool_scale, pool_zp)
        w, wf, ws = net.dequantized_weight([2, channels])
        bias, bf = net.dequantized_bias(pool_scale, ws)
        logits = b.node("Gemm", [x, w, bias], transB=1)
        net.value = wf @ net.value + bf
        scale, zp = activation_params(net.value)
        b.output(b.node("Softmax", [net.qdq(logits, scale, zp)]))
