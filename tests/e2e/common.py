"""Helpers shared by the end-to-end runners (tests/e2e/) and the benchmark (bench/).

Run everything with /usr/bin/python3 (Debian's python3-onnx and numpy).
"""
import os
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

ROOT = Path(__file__).resolve().parents[2]
ORT_RUN = ROOT / "scripts" / "ort_run.js"
INSTALL_ORT = ROOT / "scripts" / "install_ort.sh"
DEFAULT_PUBLIC_DIR = ROOT.parent / "shared" / "models" / "public"


def setup_ort(ort_dir):
    """Use (and install if needed) onnxruntime-node in ort_dir, else $ONNX_TO_C_ORT_DIR,
    else whatever require() finds."""
    if ort_dir:
        subprocess.run(["bash", str(INSTALL_ORT), ort_dir], check=True)
        os.environ["ONNX_TO_C_ORT_DIR"] = os.path.abspath(ort_dir)


class Result:
    """Outcome of run(): returncode is None on timeout."""

    def __init__(self, returncode, stdout, stderr, seconds):
        self.returncode, self.stdout, self.stderr, self.seconds = returncode, stdout, stderr, seconds


def run(cmd, timeout, env=None, cwd=None):
    import time
    env = dict(os.environ, **(env or {}))
    t0 = time.perf_counter()
    try:
        p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, errors="replace",
                           timeout=timeout, env=env, cwd=cwd, stdin=subprocess.DEVNULL)
        return Result(p.returncode, p.stdout, p.stderr, time.perf_counter() - t0)
    except subprocess.TimeoutExpired as e:
        def text(b):
            return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return Result(None, text(e.stdout), text(e.stderr), time.perf_counter() - t0)


def describe_failure(res, what):
    """One-line reason for a failed run()."""
    if res.returncode is None:
        return f"{what} timed out after {res.seconds:.0f} s"
    lines = [l for l in res.stderr.splitlines() if l.strip()] or \
            [l for l in res.stdout.splitlines() if l.strip()]
    first = next((l for l in lines if "error" in l.lower()), lines[0] if lines else "(no output)")
    how = f"signal {-res.returncode}" if res.returncode < 0 else f"exit {res.returncode}"
    return f"{what} failed ({how}): {first.strip()[:300]}"


# -- raw tensors ----------------------------------------------------------------

def write_raw(arr, path):
    arr = np.ascontiguousarray(arr)
    arr.astype(arr.dtype.newbyteorder("<")).tofile(path)


def read_raw(path, dtype, shape):
    """Read a raw little-endian tensor; raises ValueError if the size is wrong."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    size = os.path.getsize(path)
    if size != count * dtype.itemsize:
        raise ValueError(f"{size} bytes, expected {count * dtype.itemsize} ({dtype.name} {list(shape)})")
    if dtype == np.bool_:
        return np.fromfile(path, dtype=np.uint8).reshape(shape) != 0
    return np.fromfile(path, dtype=dtype.newbyteorder("<")).astype(dtype).reshape(shape)


def load_pb(path):
    t = onnx.TensorProto()
    t.ParseFromString(Path(path).read_bytes())
    return t.name, numpy_helper.to_array(t)


# -- models ---------------------------------------------------------------------

def onnx_to_np(elem_type):
    return np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type])


def graph_io(model_path):
    """([(name, dtype, shape)] for the real graph inputs, [(name, dtype)] for the outputs)."""
    m = onnx.load(str(model_path), load_external_data=False)
    inits = {t.name for t in m.graph.initializer}
    ins = []
    for vi in m.graph.input:
        if vi.name in inits:
            continue
        t = vi.type.tensor_type
        shape = [d.dim_value if d.HasField("dim_value") else -1 for d in t.shape.dim]
        ins.append((vi.name, onnx_to_np(t.elem_type), shape))
    outs = [(vi.name, onnx_to_np(vi.type.tensor_type.elem_type)) for vi in m.graph.output]
    return ins, outs


def model_seed(name):
    return zlib.crc32(name.encode())


def random_inputs(model_path, seed):
    """Seeded normal(0,1) float inputs (zeros for other dtypes) for a static-shape model."""
    rng = np.random.default_rng(seed)
    ins, _ = graph_io(model_path)
    arrays = []
    for name, dtype, shape in ins:
        if any(d < 1 for d in shape):
            raise ValueError(f"input {name} has a non-static shape {shape}")
        if dtype.kind == "f":
            arrays.append(rng.standard_normal(shape).astype(dtype))
        else:
            arrays.append(np.zeros(shape, dtype))
    return [n for n, _, _ in ins], arrays


def ort_reference(model_path, inputs, workdir, timeout=600):
    """Outputs of ONNX Runtime (scripts/ort_run.js) for `inputs`, as numpy arrays."""
    import json
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    _, outs = graph_io(model_path)
    in_files = [workdir / f"ort_in_{i}.bin" for i in range(len(inputs))]
    out_files = [workdir / f"ort_out_{i}.bin" for i in range(len(outs))]
    for arr, f in zip(inputs, in_files):
        write_raw(arr, f)
    res = run(["node", ORT_RUN, "--shapes", model_path] + in_files + out_files, timeout)
    if res.returncode != 0:
        raise RuntimeError(describe_failure(res, "ort_run.js"))
    shapes = json.loads(res.stdout.split("shapes=", 1)[1].splitlines()[0])
    return [read_raw(f, dtype, shape) for f, (_, dtype), shape in zip(out_files, outs, shapes)]


# -- comparison -----------------------------------------------------------------

def compare(out, ref, rtol, atol):
    """(ok, message, worst_abs_diff). Floats: |out-ref| <= atol + rtol*|ref|, NaN == NaN,
    infinities must match; other dtypes exactly."""
    if out.shape != ref.shape:
        return False, f"shape {list(out.shape)}, expected {list(ref.shape)}", float("inf")
    if out.size == 0:
        return True, "", 0.0
    if ref.dtype.kind == "f":
        o, r = out.astype(np.float64), ref.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(o - r)
            tol = atol + rtol * np.abs(r)
            same = (np.isnan(o) & np.isnan(r)) | (np.isinf(r) & (o == r))
            good = same | (diff <= tol)
            score = np.where(same, 0.0, np.where(np.isnan(diff), np.inf, diff / tol))
        worst = int(np.argmax(score))
        finite = np.where(same, 0.0, diff)
        max_diff = float(np.nanmax(finite)) if not np.isnan(finite).all() else float("nan")
    else:
        good = out == ref
        worst = int(np.argmax(~good))
        max_diff = 0.0 if good.all() else float("inf")
    if good.all():
        return True, "", max_diff
    idx = np.unravel_index(worst, ref.shape)
    got, want = out.reshape(-1)[worst], ref.reshape(-1)[worst]
    msg = (f"{int((~good).sum())} of {ref.size} elements differ; worst at {list(map(int, idx))}: "
           f"got {got!r}, expected {want!r}")
    if ref.dtype.kind == "f" and np.isfinite(got) and np.isfinite(want):
        msg += f" (|diff| {abs(float(got) - float(want)):.3g} > tol {atol + rtol * abs(float(want)):.3g})"
    return False, msg, max_diff


def aligned_caller_io(report):
    """The caller's input and output bytes of a --io=caller report, each rounded up to the
    arena alignment as the arena would hold them."""
    a = report["alignment"]
    sizes = {}
    for v in report["values"]:
        if v["space"] != "arena":  # a view of an input may be a slice of it: the largest is the whole
            key = (v["space"], v["index"])
            sizes[key] = max(sizes.get(key, 0), v["offset"] + v["bytes"])
    return sum((b + a - 1) // a * a for b in sizes.values())


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)
