"""Writes a model at a newer IR version than the ONNX checker's, for the lit tests.

    ir_version.py KIND OUT.onnx [SOURCE.onnx]

relabel: SOURCE with ir_version 10 and nothing else changed (what ONNX 1.16 and
later write for any opset); int4_initializer, int4_short, float8_input, cast_to_float8,
local_function: IR 10 models that use an addition of IR 9 or 10; ir13: a
model of IR version 13. Needs Debian's python3-onnx (/usr/bin/python3).
"""
import sys

import onnx
from onnx import TensorProto, helper


def relu_graph(inputs=None, initializer=(), nodes=None):
    x = inputs or [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])]
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
    nodes = nodes or [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    return helper.make_graph(nodes, "g", x, [y], initializer=list(initializer))


def model(graph, ir_version=10):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = ir_version
    return m


def main():
    kind, out = sys.argv[1], sys.argv[2]
    if kind == "relabel":
        m = onnx.load(sys.argv[3])
        m.ir_version = 10
    elif kind == "int4_initializer":
        w = TensorProto(name="w4", data_type=22, dims=[4], raw_data=b"\x12\x34")
        m = model(relu_graph(initializer=[w]))
    elif kind == "int4_short":
        w = TensorProto(name="w4", data_type=22, dims=[5], raw_data=b"\x12\x34")
        m = model(relu_graph(initializer=[w]))
    elif kind == "float8_input":
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
        x.type.tensor_type.elem_type = 17
        m = model(relu_graph(inputs=[x]))
    elif kind == "cast_to_float8":
        nodes = [helper.make_node("Cast", ["x"], ["c"], name="to_f8", to=19),
                 helper.make_node("Cast", ["c"], ["y"], name="back", to=TensorProto.FLOAT)]
        m = model(relu_graph(nodes=nodes))
    elif kind == "local_function":
        f = onnx.FunctionProto(name="MyRelu", domain="local", input=["a"], output=["b"],
                               node=[helper.make_node("Relu", ["a"], ["b"])],
                               opset_import=[helper.make_opsetid("", 13)])
        m = model(relu_graph(nodes=[helper.make_node("MyRelu", ["x"], ["y"], name="mine", domain="local")]))
        m.opset_import.append(helper.make_opsetid("local", 1))
        m.functions.append(f)
    elif kind == "ir13":
        m = model(relu_graph(), ir_version=13)
    else:
        sys.exit(f"unknown kind {kind}")
    with open(out, "wb") as f:
        f.write(m.SerializeToString())


if __name__ == "__main__":
    main()
