"""Changing the model rebuilds only what depends on it: a model whose file is
touched but unchanged reruns onnx-to-c alone (the generated files keep their
timestamps); new weights also recompile and archive the generated library and
relink the application, but never recompile the application's own sources
(the header did not change).

    test_model_rebuild.py --prefix PREFIX --work DIR
"""
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import consumer  # noqa: E402


def classify(cmd):
    if "onnx-to-c" in cmd and "--name mlp" in cmd:
        return "onnx-to-c"
    if " -c " in cmd and cmd.rstrip().endswith("/mlp.c"):
        return "compile mlp.c"
    if " -c " in cmd and cmd.rstrip().endswith("/mlp_avx2.c"):
        return "compile mlp_avx2.c"
    if " -c " in cmd and cmd.rstrip().endswith("main.c"):
        return "compile main.c"
    if "libmlp.a" in cmd and " qc " in cmd:
        return "archive libmlp.a"
    if "-o host_example" in cmd:
        return "link host_example"
    return cmd


def rebuild(build, expected, what):
    _, out = consumer.build(build)
    ran = [classify(c) for c in consumer.commands_run(out)]
    if sorted(ran) != sorted(expected):
        consumer.fail(f"{what}: expected {expected}, ran {ran}\n{out}")
    print(f"ok: {what}: {ran or 'nothing'}")


def touch_after_build(model, build):
    """Sets the model's time stamp 2 s after the newest file of the build: a
    loaded machine may write the generated files seconds after the model's own
    time stamp, and an earlier one would look older than them."""
    newest = max(p.stat().st_mtime_ns for p in build.rglob("*") if p.is_file())
    st = model.stat()
    os.utime(model, ns=(st.st_atime_ns, max(st.st_mtime_ns, newest) + 2_000_000_000))


def main():
    args = consumer.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    model = args.work / "model.onnx"
    shutil.copyfile(consumer.ROOT / "models" / "mlp_small" / "model.onnx", model)
    build = args.work / "rebuild"
    consumer.configure(consumer.EXAMPLES / "host", build, args.prefix, f"-DMODEL={model}")
    rebuild(build, ["onnx-to-c", "compile main.c", "compile mlp.c", "compile mlp_avx2.c",
                    "archive libmlp.a", "link host_example"], "first build")
    rebuild(build, [], "second build")

    touch_after_build(model, build)
    rebuild(build, ["onnx-to-c"], "model touched")
    rebuild(build, [], "build after the touch")

    m = onnx.load(str(model))
    init = max(m.graph.initializer, key=lambda t: int(np.prod(t.dims)))
    init.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(init) * 1.5, init.name))
    onnx.save(m, str(model))
    touch_after_build(model, build)
    # New weights change mlp.c alone: mlp_avx2.c reads them through mlp.c's table.
    rebuild(build, ["onnx-to-c", "compile mlp.c", "archive libmlp.a", "link host_example"],
            "new weights")


if __name__ == "__main__":
    main()
