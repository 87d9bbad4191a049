"""Writes models at opsets newer than Debian's libonnx (17), for the lit tests.

    newer_opset.py KIND OUT.onnx [SOURCE.onnx]

relabel: SOURCE with its default-domain opset set to 22 (its ops did not change
meaning after 17: only element types were added); reduce13 / reduce18: ReduceMean
over axes [2, 3] with the axes attribute (opset 13) and with a constant axes
input (opset 18); split18: Split-18 with num_outputs (7 channels into 3, 3, 1);
col2im: Col2Im-18, which onnx-to-c does not support; bad_attr: ReduceMean-18
with an attribute version 18 does not have; opset25: a Relu at opset 25;
loop_mish: SOURCE (a Loop model) at opset 18 with its body's Tanh made a Mish,
an op libonnx does not know, inside a subgraph.
Needs Debian's python3-onnx (/usr/bin/python3).
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(nodes, inputs, outputs, opset, inits=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def vi(name, shape, t=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, t, shape)


def main(kind, out, source=None):
    if kind == "relabel":
        m = onnx.load(source)
        for imp in m.opset_import:
            if imp.domain in ("", "ai.onnx"):
                imp.version = 22
    elif kind == "reduce13":
        m = model([helper.make_node("ReduceMean", ["x"], ["y"], name="mean", axes=[2, 3])],
                  [vi("x", [1, 4, 5, 6])], [vi("y", [1, 4, 1, 1])], 13)
    elif kind == "reduce18":
        axes = numpy_helper.from_array(np.array([2, 3], np.int64), "axes")
        m = model([helper.make_node("ReduceMean", ["x", "axes"], ["y"], name="mean")],
                  [vi("x", [1, 4, 5, 6])], [vi("y", [1, 4, 1, 1])], 18, [axes])
    elif kind == "split18":
        m = model([helper.make_node("Split", ["x"], ["a", "b", "c"], name="split", axis=1,
                                    num_outputs=3)],
                  [vi("x", [1, 7, 2])], [vi("a", [1, 3, 2]), vi("b", [1, 3, 2]), vi("c", [1, 1, 2])], 18)
    elif kind == "col2im":
        shape = numpy_helper.from_array(np.array([4, 4], np.int64), "image_shape")
        block = numpy_helper.from_array(np.array([2, 2], np.int64), "block_shape")
        m = model([helper.make_node("Col2Im", ["x", "image_shape", "block_shape"], ["y"], name="c2i")],
                  [vi("x", [1, 4, 9])], [vi("y", [1, 1, 4, 4])], 18, [shape, block])
    elif kind == "bad_attr":
        m = model([helper.make_node("ReduceMean", ["x"], ["y"], name="mean", axes=[1])],
                  [vi("x", [2, 3])], [vi("y", [2, 1])], 18)
    elif kind == "loop_mish":
        m = onnx.load(source)
        m.opset_import[0].version = 18
        for attr in m.graph.node[0].attribute:
            for n in attr.g.node:
                if n.op_type == "Tanh":
                    n.op_type = "Mish"
    elif kind == "opset25":
        m = model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [vi("x", [2])], [vi("y", [2])], 25)
    else:
        sys.exit(f"unknown kind {kind}")
    with open(out, "wb") as f:
        f.write(m.SerializeToString())


if __name__ == "__main__":
    main(*sys.argv[1:])
