#!/usr/bin/python3
"""Shape operands passed at run time: the generated run function checks them.

    /usr/bin/python3 tests/e2e/run_shape_operand_checks.py --compiler build/onnx-to-c [--work DIR]

A ReduceSum whose axes are a graph input (x 3x2x2, one axis, keepdims 0, declared
output 3x2: axis 1 and axis 2 both fit) is compiled with --io=caller and --io=arena
and driven by a small C main:
  * axes 1, 2, -1 and -2 give numpy's sums (the kernel reads the axes at run time);
  * axes 0 (another output shape), 3 and -4 (out of range) make NAME_run return
    NAME_ERROR_SHAPE_OPERAND and leave the output buffer and the guard bytes after it
    untouched.
A Reshape whose shape is a graph input (x 3x2x2, declared output 3x4) is driven the same
way: shapes (3, 4), (3, -1), (0, -1) and (-1, 4) give x's elements; (4, 3), (-1, -1),
(2, 6) and (0, 3) return NAME_ERROR_SHAPE_OPERAND with the output untouched.
A model whose output shape is not declared keeps the compiler's clear error.
Prints one PASS/FAIL line per check; exits 1 on any failure.
"""
import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

CFLAGS = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O1", "-ffp-contract=off",
          "-DONNX_TO_C_NO_DISPATCH"]
X = np.arange(12, dtype=np.float32).reshape(3, 2, 2) * 0.5 - 2.0
GOOD = [1, 2, -1, -2]
BAD = [0, 3, -4]
RESHAPE_GOOD = [(3, 4), (3, -1), (0, -1), (-1, 4)]
RESHAPE_BAD = [(4, 3), (-1, -1), (2, 6), (0, 3)]

MAIN = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "m.h"
#define OUT_ELEMENTS ((int)M_OUTPUT_0_ELEMENTS)
/* argv[1..2]: the shape operand's values. Prints the status and the six outputs; checks the guard. */
int main(int argc, char **argv) {
  static float x[12];
  static int64_t axes[2];
  static unsigned char out[OUT_ELEMENTS * sizeof(float) + 16];
  const void *inputs[2];
  void *outputs[1];
  int i, status;
  float y[OUT_ELEMENTS];
  for (i = 0; i < 12; i++) x[i] = (float)i * 0.5f - 2.0f;
  for (i = 1; i < argc && i <= 2; i++) axes[i - 1] = (int64_t)strtol(argv[i], NULL, 10);
  memset(out, 0xAB, sizeof out);
  inputs[0] = x;
  inputs[1] = axes;
  outputs[0] = out;
  status = m_run(inputs, outputs);
  for (i = 0; i < (int)sizeof out; i++) {
    if (status != M_OK && out[i] != 0xAB) { printf("touched %d\n", i); return 2; }
    if (status == M_OK && i >= OUT_ELEMENTS * (int)sizeof(float) && out[i] != 0xAB) { printf("overrun\n"); return 2; }
  }
  memcpy(y, out, sizeof y);
  printf("%d", status);
  for (i = 0; i < OUT_ELEMENTS && status == M_OK; i++) printf(" %.9g", (double)y[i]);
  printf("\n");
  return 0;
}
"""


def reduce_model(declare_output):
    out_shape = [3, 2] if declare_output else [None, None]
    node = helper.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=0)
    graph = helper.make_graph(
        [node], "reduce_axes_input",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2, 2]),
         helper.make_tensor_value_info("axes", TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def reshape_model():
    node = helper.make_node("Reshape", ["x", "shape"], ["y"])
    graph = helper.make_graph(
        [node], "reshape_shape_input",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2, 2]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])


def build(compiler, cc, work, model, io):
    out = work / f"c_{model.stem}_{io}"
    res = common.run([compiler, model, "-o", out, "--name", "m", f"--io={io}"], 120)
    if res.returncode != 0:
        return None, f"compile {model.name} --io={io}: {res.stderr.strip()[:300]}"
    (out / "main.c").write_text(MAIN)
    exe = out / "main"
    res = common.run([cc] + CFLAGS + ["-I", out, out / "m.c", out / "main.c", "-o", exe, "-lm"], 120)
    if res.returncode != 0:
        return None, f"build {model.name} --io={io}: {res.stderr.strip()[:300]}"
    return exe, None


def check_runs(exe, label, cases):
    """cases: (argv values, expected outputs or None for a refused operand)."""
    problems = []
    for values, want in cases:
        res = common.run([exe] + [str(v) for v in values], 60)
        fields = res.stdout.split()
        if res.returncode != 0 or not fields:
            problems.append(f"{label} {values}: exit {res.returncode} {res.stdout.strip()}")
            continue
        status = int(fields[0])
        if want is None:
            if status != 5:  # M_ERROR_SHAPE_OPERAND
                problems.append(f"{label} {values}: status {status}, expected 5")
            continue
        got = np.array([float(v) for v in fields[1:]], dtype=np.float32)
        if status != 0 or got.shape != want.shape or not np.allclose(got, want, rtol=1e-6, atol=0):
            problems.append(f"{label} {values}: status {status}, got {got}, want {want}")
    return problems


def cases_for(stem):
    if stem == "reduce":
        return ([((a,), X.sum(axis=a).ravel()) for a in GOOD] + [((a,), None) for a in BAD])
    return [(s, X.ravel()) for s in RESHAPE_GOOD] + [(s, None) for s in RESHAPE_BAD]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--work")
    args = ap.parse_args()
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="oc_shape_operands_"))
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    failures = 0
    models = {"reduce": reduce_model(True), "reshape": reshape_model()}
    for stem, model in models.items():
        path = work / f"{stem}.onnx"
        onnx.save(model, path)
        for io in ("caller", "arena"):
            exe, problem = build(args.compiler, args.cc, work, path, io)
            problems = [problem] if problem else check_runs(exe, f"{stem} --io={io}", cases_for(stem))
            failures += bool(problems)
            print(("FAIL" if problems else "PASS") + f" {stem}: run-time shape operand checked (--io={io})")
            for p in problems:
                print("  " + p)
    undeclared = work / "undeclared.onnx"
    onnx.save(reduce_model(False), undeclared)
    res = common.run([args.compiler, undeclared, "-o", work / "c_undeclared"], 60)
    ok = res.returncode == 1 and "(axes) is computed at run time" in res.stderr and "ReduceSum" in res.stderr
    failures += not ok
    print(("PASS" if ok else "FAIL") + " no declared output shape: the constant-axes error")
    if not ok:
        print("  " + res.stderr.strip()[:300])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
