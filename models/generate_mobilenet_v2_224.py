"""MobileNetV2 1.0 at 224x224x3 with 1000 classes, the layer structure of Keras's
`MobileNetV2(alpha=1.0)` (keras/applications/mobilenet_v2.py): a 3x3 stride-2 stem of 32 channels,
17 inverted residual blocks (the first without expansion, the others expanding 6x with a 1x1
convolution, a 3x3 depthwise convolution, a linear 1x1 projection, the residual Add where the
stride is 1 and the channels stay), a 1x1 convolution to 1280, global average pooling and a dense
layer to 1000 classes (Softmax in float after the last DequantizeLinear). Stride-2 layers pad only
bottom and right (Keras's ZeroPadding2D(correct_pad) before a 'valid' convolution), the others
'same'. Random weights, quantized as generate_vww.py quantizes VWW (ONNX Runtime's static QDQ
quantizer: int8 weights symmetric per output channel, int32 biases, int8 activations per tensor,
min/max calibrated on the test input); each ReLU6 is folded into its convolution's output range
[0, min(6, max)]. The input is uniform in [-1, 1), as Keras's preprocess_input scales an image.

The model (3.5 M weights) lives in models/large/, out of the folders every model suite walks:
tests/CMakeLists.txt runs it in e2e.mobilenet_v2_224 alone.
"""
import numpy as np

from generate_vww import Network, activation_params

# (expansion, output channels, repeats, first stride): Keras's MobileNetV2 for alpha 1.0.
STAGES = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
          (6, 160, 3, 2), (6, 320, 1, 1)]
RELU6 = 6.0


def inverted_residual(net, x, x_scale, channels, expansion, out_channels, stride):
    """One block on the QDQ tensor x; returns the block's output and its scale."""
    skip, skip_value = x, net.value
    y, y_scale = x, x_scale
    if expansion != 1:
        y, y_scale = net.conv(y, y_scale, [channels * expansion, channels, 1, 1], 1, 1, relu_max=RELU6)
    width = channels * expansion
    y, y_scale = net.conv(y, y_scale, [width, 1, 3, 3], stride, width, relu_max=RELU6)
    y, y_scale = net.conv(y, y_scale, [out_channels, width, 1, 1], 1, 1, relu=False)
    if stride != 1 or channels != out_channels:
        return y, y_scale
    net.value = net.value + skip_value
    scale, zp = activation_params(net.value)
    return net.qdq(net.b.node("Add", [skip, y]), scale, zp), scale


def register_mobilenet_v2_224(model):
    """Registers the model with generate.py's @model decorator (written under models/large/)."""

    @model("mobilenet_v2_224_int8")
    def build(b):
        """QDQ int8 Keras-architecture MobileNetV2 1.0 at 224x224x3: 3x3 stride-2 stem 32, 17 inverted residual blocks (expansion 6, ReLU6, 10 residual Adds), 1x1 conv 1280, GlobalAveragePool, Gemm to 1000 classes, Softmax (random weights, min/max calibrated, 300.8 M MACs)"""
        x = b.input([1, 3, 224, 224], dist="uniform", low=-1.0, high=1.0)
        net = Network(b, b.feeds[-1])
        x_scale, x_zp = activation_params(net.value)
        x = net.qdq(x, x_scale, x_zp)
        channels = 32
        x, x_scale = net.conv(x, x_scale, [channels, 3, 3, 3], 2, 1, relu_max=RELU6)
        for expansion, out_channels, repeats, first_stride in STAGES:
            for i in range(repeats):
                x, x_scale = inverted_residual(net, x, x_scale, channels, expansion, out_channels,
                                               first_stride if i == 0 else 1)
                channels = out_channels
        x, x_scale = net.conv(x, x_scale, [1280, channels, 1, 1], 1, 1, relu_max=RELU6)
        x = b.node("GlobalAveragePool", [x])
        net.value = net.value.mean(axis=(1, 2))
        pool_scale, pool_zp = activation_params(net.value)
        x = net.qdq(x, pool_scale, pool_zp)
        x = net.qdq(b.node("Flatten", [x]), pool_scale, pool_zp)
        w, wf, ws = net.dequantized_weight([1000, 1280])
        bias, bf = net.dequantized_bias(pool_scale, ws)
        logits = b.node("Gemm", [x, w, bias], transB=1)
        net.value = wf @ net.value + bf
        scale, zp = activation_params(net.value)
        b.output(b.node("Softmax", [net.qdq(logits, scale, zp)]))

    build.subdir = "large"
