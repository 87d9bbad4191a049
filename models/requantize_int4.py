#!/usr/bin/python3
"""Turns an int8 QDQ model into a mixed 4/8-bit one: the weights of the chosen Conv, Gemm and
MatMul layers are quantized again to int4, symmetric per output channel (scale max|w| / 7 of the
dequantized int8 weights, values rounded half to even and clipped to [-8, 7]), and their int32
biases with them (scale x_scale * w_scale, the value of the old bias rounded to the new steps);
activations and the other layers keep their 8-bit quantization. The model is written at opset 21,
IR version 10, where DequantizeLinear takes int4 (python3-onnx 1.12 neither knows INT4 nor checks
opset 21: the tensors are written as raw TensorProtos).

    /usr/bin/python3 models/requantize_int4.py IN.onnx OUT.onnx [--skip-depthwise] [--skip-cin-below N]

Every Conv/Gemm/MatMul whose weight is a DequantizeLinear of an int8 initializer is taken, except
depthwise convolutions with --skip-depthwise and layers of fewer than N input channels per group
with --skip-cin-below (stems: few channels, few weights). Prints one line per layer and the counts.
"""
import argparse
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_int4 import four_bit_tensor  # noqa: E402


def consumers_of(graph):
    users = {}
    for node in graph.node:
        for name in node.input:
            users.setdefault(name, []).append(node)
    return users


def requantize_layer(graph, inits, producer, layer, users):
    """Requantizes `layer`'s weight (and bias) to int4; False when the layer does not qualify."""
    dq = producer.get(layer.input[1])
    if dq is None or dq.op_type != "DequantizeLinear" or dq.input[0] not in inits:
        return False
    w8 = numpy_helper.to_array(inits[dq.input[0]])
    if w8.dtype != np.int8 or len(users[dq.input[0]]) != 1 or len(users[dq.output[0]]) != 1:
        return False
    scale8 = numpy_helper.to_array(inits[dq.input[1]]).astype(np.float32)
    axis = next((a.i for a in dq.attribute if a.name == "axis"), 1)
    axis = axis % w8.ndim
    bshape = [1] * w8.ndim
    bshape[axis] = -1
    w = w8.astype(np.float32) * scale8.reshape(bshape)
    red = tuple(d for d in range(w.ndim) if d != axis)
    scale4 = np.maximum(np.abs(w).max(axis=red) / np.float32(7.0), np.float32(1e-12)).astype(np.float32)
    q4 = np.clip(np.round(w / scale4.reshape(bshape)), -8, 7)
    inits[dq.input[0]].CopyFrom(four_bit_tensor(dq.input[0], q4, True))
    inits[dq.input[1]].CopyFrom(numpy_helper.from_array(scale4, dq.input[1]))
    if len(dq.input) > 2 and dq.input[2]:
        inits[dq.input[2]].CopyFrom(four_bit_tensor(dq.input[2], np.zeros(len(scale4)), True))
    if len(layer.input) > 2 and layer.input[2]:
        bdq = producer[layer.input[2]]
        b32 = numpy_helper.to_array(inits[bdq.input[0]]).astype(np.float64)
        bscale_old = numpy_helper.to_array(inits[bdq.input[1]]).astype(np.float64)
        x_scale = float(bscale_old.reshape(-1)[0] / scale8.reshape(-1)[0])
        bscale = (np.float32(x_scale) * scale4).astype(np.float32)
        b = np.round(b32 * bscale_old / bscale).astype(np.int32)
        inits[bdq.input[0]].CopyFrom(numpy_helper.from_array(b, bdq.input[0]))
        inits[bdq.input[1]].CopyFrom(numpy_helper.from_array(bscale, bdq.input[1]))
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--skip-depthwise", action="store_true")
    ap.add_argument("--skip-cin-below", type=int, default=0)
    args = ap.parse_args()
    m = onnx.load(args.input)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    producer = {o: n for n in g.node for o in n.output}
    users = consumers_of(g)
    convs = four = 0
    for layer in g.node:
        if layer.op_type not in ("Conv", "Gemm", "MatMul"):
            continue
        convs += layer.op_type == "Conv"
        w_dq = producer.get(layer.input[1])
        w_name = w_dq.input[0] if w_dq is not None else ""
        dims = list(inits[w_name].dims) if w_name in inits else []
        group = next((a.i for a in layer.attribute if a.name == "group"), 1)
        depthwise = layer.op_type == "Conv" and group > 1 and len(dims) > 1 and dims[1] == 1
        cin = dims[1] if layer.op_type == "Conv" and len(dims) > 1 else args.skip_cin_below
        if (args.skip_depthwise and depthwise) or cin < args.skip_cin_below:
            print(f"{layer.name}: 8-bit")
            continue
        done = requantize_layer(g, inits, producer, layer, users)
        four += done and layer.op_type == "Conv"
        print(f"{layer.name}: {'4-bit' if done else '8-bit'}")
    print(f"{four} of {convs} convolutions 4-bit")
    del m.opset_import[:]
    m.opset_import.append(onnx.helper.make_opsetid("", 21))
    m.ir_version = 10
    Path(args.output).write_bytes(m.SerializeToString())


if __name__ == "__main__":
    main()
