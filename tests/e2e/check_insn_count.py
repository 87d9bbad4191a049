#!/usr/bin/python3
"""Cross-checks the instruction-counting QEMU plugin against a second, independent count: QEMU run
with one instruction per translation block (-singlestep) and an execution trace (-d exec,nochain),
counting trace lines between the entries of oc_mark_begin and oc_mark_end.

    check_insn_count.py --compiler build/onnx-to-c --work DIR MODEL_DIR:CPU,CPU ...

Both counts must be equal (the empty calibration bracket subtracted from each).
"""
import argparse
import glob
import json
import re
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

TRACE_PC = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")


def symbol(elf, name):
    out = subprocess.run(["arm-none-eabi-nm", elf], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == name:
            return int(parts[0], 16) & ~1
    raise KeyError(name)


def traced_count(build, timeout):
    elf = build / "fw" / "firmware.elf"
    machine = (build / "fw" / "qemu_machine.txt").read_text().strip()
    begin, end = symbol(elf, "oc_mark_begin"), symbol(elf, "oc_mark_end")
    trace = build / "trace.txt"
    res = common.run(["qemu-system-arm", "-M", machine, "-nographic", "-monitor", "none", "-serial", "null",
                      "-semihosting-config", "enable=on,target=native", "-singlestep", "-d", "exec,nochain",
                      "-D", trace, "-kernel", elf], timeout)
    if res.returncode != 0:
        raise RuntimeError(common.describe_failure(res, "qemu-system-arm (trace)"))
    intervals, count, inside = [], 0, False
    with open(trace) as f:
        for line in f:
            m = TRACE_PC.match(line)
            if not m:
                continue
            pc = int(m.group(1), 16)
            if pc == begin:
                inside, count = True, 0
            elif pc == end and inside:
                intervals.append(count)
                inside = False
            if inside:
                count += 1
    trace.unlink()
    if len(intervals) != 2:
        raise RuntimeError(f"the trace shows {len(intervals)} marker intervals, not 2")
    return intervals[1] - intervals[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", help="MODEL_DIR:CPU,CPU")
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    failures = 0
    for spec in args.models:
        path, cpus = spec.rsplit(":", 1)
        model_dir = Path(path)
        ins = [common.load_pb(p)[1] for p in sorted(glob.glob(str(model_dir / "test_data_set_0" / "input_*.pb")))]
        _, outs = common.graph_io(model_dir / "model.onnx")
        for cpu in cpus.split(","):
            work = Path(args.work) / model_dir.name / cpu
            work.mkdir(parents=True, exist_ok=True)
            in_files = [work / f"in_{i}.bin" for i in range(len(ins))]
            for arr, f in zip(ins, in_files):
                common.write_raw(arr, f)
            out_files = [work / f"out_{i}.bin" for i in range(len(outs))]
            res = common.run(["bash", common.ROOT / "scripts" / "run-on-qemu.sh", model_dir / "model.onnx",
                              "--cpu", cpu, "--keep", work / "build", "--stats", work / "stats.json"]
                             + in_files + out_files, args.timeout, env={"ONNX_TO_C": args.compiler})
            if res.returncode != 0:
                print(f"FAIL {model_dir.name} {cpu}: {common.describe_failure(res, 'run-on-qemu.sh')}")
                failures += 1
                continue
            plugin = json.loads((work / "stats.json").read_text())["run_instructions"]
            traced = traced_count(work / "build", args.timeout)
            ok = plugin == traced and plugin > 0
            print(f"{'PASS' if ok else 'FAIL'} {model_dir.name} {cpu}: plugin {plugin}, trace {traced}")
            failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
