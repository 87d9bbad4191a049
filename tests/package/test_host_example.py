"""examples/host built against an installed prefix: it must compile
warning-free, its output must match the model's reference output, and the
JSON and HTML reports must be written.

    test_host_example.py --prefix PREFIX --work DIR
"""
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import consumer  # noqa: E402


def main():
    args = consumer.parse_args()
    model_dir = consumer.ROOT / "models" / "mlp_small"
    build = args.work / "host"
    consumer.configure(consumer.EXAMPLES / "host", build, args.prefix,
                       f"-DMODEL={model_dir / 'model.onnx'}")
    consumer.build(build)

    def tensor(name):
        t = onnx.TensorProto()
        t.ParseFromString((model_dir / "test_data_set_0" / name).read_bytes())
        return numpy_helper.to_array(t)

    x, expected = tensor("input_0.pb"), tensor("output_0.pb")
    (args.work / "input.bin").write_bytes(x.astype("<f4").tobytes())
    rc, out = consumer.run([build / "host_example", args.work / "input.bin", args.work / "output.bin"])
    if rc != 0:
        consumer.fail(f"host_example failed: {out}")
    got = np.frombuffer((args.work / "output.bin").read_bytes(), dtype="<f4").reshape(expected.shape)
    if not np.allclose(got, expected, rtol=1e-4, atol=1e-5):
        consumer.fail(f"output differs from the reference: max |diff| {np.abs(got - expected).max()}")
    for report in ("mlp.json", "mlp.html"):
        if not (build / report).is_file():
            consumer.fail(f"REPORT/HTML_REPORT: {report} was not written")
    print(f"ok: host example built against {args.prefix}, output matches ({out.strip()})")


if __name__ == "__main__":
    main()
