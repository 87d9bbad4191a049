#!/usr/bin/python3
"""The main job on one model: compile it with onnx-to-c, build the C with gcc
(-std=c99 -pedantic -Wall -Wextra -Werror -O2 -ffp-contract=off), run it on the
model's test input and print a short report.

    /usr/bin/python3 scripts/demo.py [MODEL_DIR] [--work DIR]

MODEL_DIR holds model.onnx and test_data_set_0/ (default: models/cnn_small).
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.dont_write_bytecode = True
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
import common  # noqa: E402

CFLAGS = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O2", "-ffp-contract=off"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model_dir", nargs="?", default=str(ROOT / "models" / "cnn_small"))
    ap.add_argument("--work", default=None, help="scratch directory (default: a temporary one)")
    args = ap.parse_args()
    model_dir = Path(args.model_dir)
    work = Path(args.work or tempfile.mkdtemp(prefix="onnx-to-c-demo-"))
    out = work / "generated"
    report = work / "report.json"
    compiler = ROOT / "build" / "onnx-to-c"

    cmd = [str(compiler), str(model_dir / "model.onnx"), "-o", str(out), "--name", "demo",
           "--emit-harness", "--report", str(report)]
    print("$", " ".join(str(Path(c).relative_to(ROOT)) if c.startswith(str(ROOT)) else c for c in cmd))
    subprocess.run(cmd, check=True)
    prog = work / "demo"
    sources = sorted(str(p) for p in out.glob("*.c"))
    subprocess.run(["gcc", *CFLAGS, *sources, "-lm", "-o", str(prog)], check=True)

    data = model_dir / "test_data_set_0"
    inputs = [common.load_pb(p)[1] for p in sorted(data.glob("input_*.pb"))]
    refs = [common.load_pb(p)[1] for p in sorted(data.glob("output_*.pb"))]
    in_files, out_files = [], []
    for i, arr in enumerate(inputs):
        f = work / f"in_{i}.bin"
        common.write_raw(arr, f)
        in_files.append(str(f))
    out_files = [str(work / f"out_{i}.bin") for i in range(len(refs))]
    subprocess.run([str(prog), *in_files, *out_files], check=True)

    r = json.loads(report.read_text())
    print(f"model        {model_dir.name}: {r['statements']} statements, {r['macs']:,} MACs, "
          f"{r['weights_bytes']:,} bytes of weights")
    print(f"arena        {r['arena_bytes']:,} bytes (planner {r['planner']}; modeled peak "
          f"{r['peak_bytes']:,}; without reuse {r['linear_arena_bytes']:,})")
    verdict = ("certified optimal: no operator order needs less" if r["certified_optimal"]
               else f"gap {r['gap_bytes']:,} bytes")
    print(f"order        peak {r['peak_bytes']:,} bytes, lower bound {r['lower_bound_bytes']:,}: {verdict}")
    print(f"sources      {', '.join(p.name for p in sorted(out.iterdir()))} in {out}")
    worst = 0.0
    for i, ref in enumerate(refs):
        got = common.read_raw(out_files[i], ref.dtype, ref.shape)
        diff = float(np.max(np.abs(got.astype(np.float64) - ref.astype(np.float64)))) if ref.size else 0.0
        worst = max(worst, diff)
        flat = got.reshape(-1)
        print(f"output {i}     shape {list(ref.shape)}: {np.array2string(flat[:6], precision=4)}"
              f"{' ...' if flat.size > 6 else ''}")
    ok = all(np.allclose(common.read_raw(out_files[i], ref.dtype, ref.shape), ref, rtol=1e-3, atol=1e-5)
             for i, ref in enumerate(refs))
    print(f"reference    ONNX Runtime outputs {'match' if ok else 'DO NOT match'} "
          f"(max |diff| {worst:.2g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
