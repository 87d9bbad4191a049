"""Writes SOURCE (a Loop model whose trip count is the initializer 'trip_count') with
the trip count turned into a graph input, for the lit tests.

    loop_trip_input.py SOURCE.onnx OUT.onnx

Needs Debian's python3-onnx (/usr/bin/python3).
"""
import sys

import onnx
from onnx import TensorProto, helper


def main(source, out):
    m = onnx.load(source)
    inits = [t for t in m.graph.initializer if t.name != "trip_count"]
    del m.graph.initializer[:]
    m.graph.initializer.extend(inits)
    m.graph.input.append(helper.make_tensor_value_info("trip_count", TensorProto.INT64, []))
    onnx.save(m, out)


if __name__ == "__main__":
    main(*sys.argv[1:])
