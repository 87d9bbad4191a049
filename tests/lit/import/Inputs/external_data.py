"""Writes a model whose initializers live in an external file, for the lit tests.

    external_data.py KIND SOURCE.onnx OUT_DIR

all: every initializer of SOURCE in OUT_DIR/model.onnx.data (offsets and
lengths, as PyTorch's exporter writes them); beyond: one initializer whose
length runs past the end of the file; link: the data file is a symbolic link
to a file outside OUT_DIR. Needs Debian's python3-onnx (/usr/bin/python3).
"""
import os
import sys

import onnx
from onnx.external_data_helper import convert_model_to_external_data


def main():
    kind, source, out = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    m = onnx.load(source)
    convert_model_to_external_data(m, all_tensors_to_one_file=True, location="model.onnx.data",
                                   size_threshold=0)
    if kind == "link":
        onnx.save_model(m, os.path.join(out, "..", "outside.onnx"))
        os.rename(os.path.join(out, "..", "model.onnx.data"), os.path.join(out, "..", "outside.data"))
        os.symlink(os.path.join("..", "outside.data"), os.path.join(out, "model.onnx.data"))
        m = onnx.load(os.path.join(out, "..", "outside.onnx"), load_external_data=False)
    elif kind == "beyond":
        onnx.save_model(m, os.path.join(out, "model.onnx"))
        m = onnx.load(os.path.join(out, "model.onnx"), load_external_data=False)
        entry = [e for e in m.graph.initializer[0].external_data if e.key == "length"][0]
        entry.value = str(int(entry.value) + 10 ** 9)
    if kind == "all":
        onnx.save_model(m, os.path.join(out, "model.onnx"))
    else:
        with open(os.path.join(out, "model.onnx"), "wb") as f:
            f.write(m.SerializeToString())


if __name__ == "__main__":
    main()
