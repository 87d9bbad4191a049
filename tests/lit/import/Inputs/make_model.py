"""Writes one small ONNX model for the lit tests.

    make_model.py KIND OUT.onnx

Kinds are valid ONNX (the checker accepts them). unique, conv4d, runtime_shape
use something onnx-to-c does not support, so the error must come from the
importer and name the node; symbolic_batch is a Relu over x: f32[batch x 4];
several_problems has three independent ones (a symbolic dimension that is not
the batch, Unique, NonZero) and a node that reads Unique's result.
Needs Debian's python3-onnx (/usr/bin/python3).
"""
import sys

import onnx
from onnx import TensorProto, helper


def unique():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [6])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n"])
    node = helper.make_node("Unique", ["x"], ["y"], name="my_unique")
    return helper.make_graph([node], "unique", [x], [y])


def conv4d():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 3, 3, 3, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 3, 3, 3, 3])
    w = helper.make_tensor("w", TensorProto.FLOAT, [1, 1, 1, 1, 1, 1], [2.0])
    node = helper.make_node("Conv", ["x", "w"], ["y"], name="conv_4d")
    return helper.make_graph([node], "conv4d", [x], [y], initializer=[w])


def runtime_shape():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    s = helper.make_tensor_value_info("s", TensorProto.INT64, [2])
    # No declared output shape: nothing fixes the static shape of y.
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, None])
    node = helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape_by_input")
    return helper.make_graph([node], "runtime_shape", [x, s], [y])


def symbolic_batch():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])
    return helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "batch", [x], [y])


def several_problems():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, "seq"])
    nodes = [helper.make_node("Unique", ["x"], ["u"], name="uniq"),
             helper.make_node("Relu", ["u"], ["after"], name="after_uniq"),
             helper.make_node("Relu", ["z"], ["w"], name="reads_z"),
             helper.make_node("Relu", ["x"], ["y"], name="fine"),
             helper.make_node("NonZero", ["x"], ["nz"], name="nonzero")]
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4]),
            helper.make_tensor_value_info("w", TensorProto.FLOAT, [1, "seq"]),
            helper.make_tensor_value_info("after", TensorProto.FLOAT, ["n"]),
            helper.make_tensor_value_info("nz", TensorProto.INT64, [2, "k"])]
    return helper.make_graph(nodes, "several", [x, z], outs)


KINDS = {"unique": (unique, 12), "conv4d": (conv4d, 13), "runtime_shape": (runtime_shape, 13),
         "symbolic_batch": (symbolic_batch, 13), "several_problems": (several_problems, 13)}


def main():
    kind, out = sys.argv[1], sys.argv[2]
    build, opset = KINDS[kind]
    model = helper.make_model(build(), opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="onnx-to-c lit")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, out)


if __name__ == "__main__":
    main()
