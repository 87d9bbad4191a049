#!/usr/bin/python3
"""A public network with 4-bit weights against its 8-bit model (issue 45's "Done when").

    run_int4_public.py --compiler build/onnx-to-c --work DIR --int8-dir DIR [--model resnet8_tiny_32]

models/requantize_int4.py turns the int8 QDQ model (DIR/MODEL.onnx) into a mixed 4/8-bit one
(int4 weights on every Conv with at least 4 input channels per group, the Gemm too). Checks:
  * at least half of the convolutions have 4-bit weights;
  * the report's weights_bytes of the 4-bit model is at most --max-weight-ratio (0.6) times the
    8-bit model's;
  * every 8-bit activation of the 4-bit model is bit-identical to ONNX Runtime's
    (run_int8_models.py --probe-all, exact, float requantization);
  * on the Cortex-M4 under QEMU the 4-bit model runs in at most --max-insn-ratio (1.15) times the
    8-bit model's instructions, both built in one run (run_cortex_m.py: bit-identical to x86-64).
Skipped (exit 0) when the int8 model is absent. Run with /usr/bin/python3.
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
E2E = ROOT / "tests" / "e2e"


def run(cmd):
    """Runs cmd; its output, or exit 1 with it when it fails."""
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(str(c) for c in cmd)}\n{p.stdout}{p.stderr}")
    return p.stdout


def weights_bytes(compiler, model, out):
    run([compiler, model, "-o", out, "--report", f"{out}.json"])
    return json.loads(Path(f"{out}.json").read_text())["weights_bytes"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--int8-dir", required=True)
    ap.add_argument("--model", default="resnet8_tiny_32")
    ap.add_argument("--max-weight-ratio", type=float, default=0.6)
    ap.add_argument("--max-insn-ratio", type=float, default=1.15)
    args = ap.parse_args()
    src = Path(args.int8_dir) / f"{args.model}.onnx"
    if not src.exists():
        print(f"skipped: {src} is absent")
        return 0
    work = Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    pub = work / "public"
    pub.mkdir(parents=True)
    eight, four = pub / f"{args.model}.onnx", pub / f"{args.model}_w4.onnx"
    shutil.copy(src, eight)
    log = run([sys.executable, ROOT / "models" / "requantize_int4.py", eight, four, "--skip-cin-below", 4])
    done, convs = map(int, re.search(r"(\d+) of (\d+) convolutions 4-bit", log).groups())
    failures = []
    print(f"{args.model}: {done} of {convs} convolutions with 4-bit weights")
    if 2 * done < convs:
        failures.append("fewer than half of the convolutions are 4-bit")

    w8 = weights_bytes(args.compiler, eight, work / "c8")
    w4 = weights_bytes(args.compiler, four, work / "c4")
    print(f"weights_bytes: 8-bit {w8} B, 4-bit {w4} B ({w4 / w8:.3f}x)")
    if w4 > args.max_weight_ratio * w8:
        failures.append(f"4-bit weights {w4} B > {args.max_weight_ratio} x {w8} B")

    print(run([sys.executable, E2E / "run_int8_models.py", "--compiler", args.compiler, "--requant", "float",
               "--cc", "gcc", "--probe-all", "--work", work / "ort", f"{four}:exact"]).strip())

    out = run([sys.executable, E2E / "run_cortex_m.py", "--compiler", args.compiler, "--jobs", 2,
               "--work", work / "qemu", "--public", pub, f"{args.model}:cortex-m4", f"{args.model}_w4:cortex-m4"])
    insns = {m.group(1): int(m.group(2)) for m in re.finditer(r"PASS (\S+) cortex-m4: .*?; (\d+) instructions", out)}
    i8, i4 = insns[args.model], insns[f"{args.model}_w4"]
    print(f"Cortex-M4 instructions: 8-bit {i8}, 4-bit {i4} ({i4 / i8:.3f}x)")
    if i4 > args.max_insn_ratio * i8:
        failures.append(f"4-bit {i4} instructions > {args.max_insn_ratio} x {i8}")
    for f in failures:
        print(f"FAIL: {f}")
    print("PASS" if not failures else "FAIL")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
