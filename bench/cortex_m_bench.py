#!/usr/bin/python3
"""Cortex-M costs under QEMU: per model and CPU, the instructions executed in the run function,
flash, RAM, arena and stack, for the default build and for the file-order, no-reuse build
(`--schedule=file --planner=linear`).

    /usr/bin/python3 bench/cortex_m_bench.py --compiler build/onnx-to-c [--public DIR]
        [--work DIR] [--json FILE] [--jobs N] [STEM:CPU,CPU ...]
    /usr/bin/python3 bench/cortex_m_bench.py --compiler build/onnx-to-c --int8 [--int8-dir DIR]
        [--profile-dir DIR]

Without STEM:CPUS arguments it runs the MLPerf Tiny models (dscnn_kws_49x10, dense_ae_640,
resnet8_tiny_32) on cortex-m4, cortex-m7 and cortex-m3 and every other public model on cortex-m4
(all on seeded normal(0,1) inputs; public models skipped when DIR is absent). --against=OPTS
compares the default build with one built with those options instead (one run, side by side). Models that do not
fit the board are listed with the linker's reason. Instructions come from the counting plugin
(deterministic for a given input); flash is .vectors+.text+.rodata+.data, RAM is .data+.bss with
the arena included, stack is the measured high-water mark of the run (painted stack) and, after
the slash, the static bound from GCC's call graph. Beside the instructions, the Cortex-M4
cycle estimate of the counting plugin (targets/cortex_m/qemu_plugin/m4_cycles.h: each instruction
priced by its class from the Cortex-M4 Technical Reference Manual, zero wait states).

--int8 runs the int8 MLPerf Tiny models (../shared/models/int8, and models/int8_vww_96 for visual
wake words) on the Cortex-M4F with 8-bit inputs (`--quantized-io`, as the other engines take the
sensor's data) and prints them beside the published MLPerf Tiny results of other engines on a
Cortex-M4 at 120 MHz (NUCLEO-L4R5ZI; cycles = latency in ms x 120,000), with the ratio of our
estimated cycles to each (n/a where an engine published no figure for the model). --profile-dir writes each model's instructions and estimated cycles per statement
(run-on-qemu.sh --profile) there.
"""
import argparse
import concurrent.futures
import json
import re
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
import common  # noqa: E402
from run_quantized_io import edge_quantization, quantize  # noqa: E402

RUN_ON_QEMU = common.ROOT / "scripts" / "run-on-qemu.sh"
TINY = ["dscnn_kws_49x10", "dense_ae_640", "resnet8_tiny_32"]
VARIANTS = {"default": [], "file+linear": ["--schedule=file", "--planner=linear"]}
# Published MLPerf Tiny inference results on a Cortex-M4 at 120 MHz (NUCLEO-L4R5ZI), as cycles
# (ms x 120,000): TFLite Micro + CMSIS-NN, microTVM + CMSIS-NN, X-CUBE-AI 10.2 (MLPerf Tiny
# v1.3), Plumerai (v1.1); None where the engine's results give no figure for the model.
PUBLISHED = {
    "dscnn_kws_49x10": [21.8e6, 12.0e6, 5.21e6, 5.73e6],
    "resnet8_tiny_32": [84.5e6, 46.8e6, 19.9e6, 20.1e6],
    "dense_ae_640": [1.21e6, 1.03e6, 0.58e6, 0.49e6],
    "int8_vww_96": [None, None, 10.73e6, 11.85e6],
}
ENGINES = ["TFLM + CMSIS-NN", "microTVM + CMSIS-NN", "X-CUBE-AI 10.2", "Plumerai"]
# The MLPerf Tiny models that live in models/ rather than in the int8 folder.
LOCAL_INT8 = {"int8_vww_96": common.ROOT / "models" / "int8_vww_96" / "model.onnx"}
INT8_OPTIONS = ["--quantized-io"]


def label_of(model):
    """A model's name: its folder's for models/NAME/model.onnx, else its file's stem."""
    return model.parent.name if model.name == "model.onnx" else model.stem


def measure(args, model, cpu, variant, options=()):
    work = Path(args.work) / label_of(model) / cpu / variant.replace("+", "_")
    work.mkdir(parents=True, exist_ok=True)
    names, arrays = common.random_inputs(model, common.model_seed(label_of(model)))
    if "--quantized-io" in options:  # the 8-bit inputs, quantized as the model's QuantizeLinear does
        q_inputs, _ = edge_quantization(model)
        arrays = [quantize(x, *q_inputs[n][1:]) if n in q_inputs else x for n, x in zip(names, arrays)]
    _, outs = common.graph_io(model)
    ins = [work / f"in_{i}.bin" for i in range(len(arrays))]
    for arr, f in zip(arrays, ins):
        common.write_raw(arr, f)
    out_files = [work / f"out_{i}.bin" for i in range(len(outs))]
    profile = []
    if getattr(args, "profile_dir", None):
        profile = ["--profile", str(Path(args.profile_dir).resolve() / f"{label_of(model)}_{cpu}_{variant.replace('+', '_')}.tsv")]
    res = common.run(["bash", RUN_ON_QEMU, model, "--cpu", cpu, "--keep", work / "build", "--stats",
                      work / "stats.json", "--timeout", str(args.timeout)] + profile + ins + out_files +
                     ["--"] + VARIANTS[variant] + list(options), args.timeout + 600, env={"ONNX_TO_C": args.compiler})
    if res.returncode != 0:
        # "onnx-to-c firmware: flash use exceeds ..." and "region `FLASH' overflowed by N bytes"
        what = re.search(r"onnx-to-c firmware: (.*?) exceeds", res.stderr)
        over = re.search(r"region `(\w+)' overflowed by (\d+) bytes", res.stderr)
        if what:
            extra = f" ({over.group(1)} short by {int(over.group(2)):,} B)" if over else ""
            return {"error": f"does not fit: {what.group(1)}{extra}"}
        return {"error": common.describe_failure(res, "run-on-qemu.sh")}
    return json.loads((work / "stats.json").read_text())


def cells(s):
    if "error" in s:
        return [s["error"], "", "", "", "", ""]
    def n(key):  # a figure the run did not give (e.g. no cycle estimate for the CPU) prints as n/a
        return "n/a" if s.get(key) is None else f"{s[key]:,}"
    return [n("run_instructions"), n("run_cycles_m4_estimate"), n("flash_bytes"), n("ram_bytes"),
            n("arena_bytes"), f"{s.get('stack_bytes')}/{s.get('stack_bound_bytes')}"]


def int8_table(args):
    """The int8 MLPerf Tiny models on the Cortex-M4F beside the published engines."""
    models = [LOCAL_INT8.get(stem, Path(args.int8_dir) / f"{stem}.onnx") for stem in PUBLISHED]
    models = [m for m in models if m.exists()]
    if not models:
        print(f"skipped: no int8 models in {args.int8_dir}")
        return 0
    if args.profile_dir:
        Path(args.profile_dir).mkdir(parents=True, exist_ok=True)
    variants = ["default"] + (["file+linear"] if args.against else [])
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        stats = list(pool.map(lambda mv: measure(args, mv[0], "cortex-m4", mv[1], INT8_OPTIONS),
                              [(m, v) for m in models for v in variants]))
    against = f" | {args.against}: instructions (ours / it) | {args.against}: arena B" if args.against else ""
    print("| model | ours: M4F instructions | ours: est. M4 cycles | ours: arena B | " +
          " | ".join(f"{e} cycles (ours / theirs)" for e in ENGINES) + against + " |")
    print("|---|---:|---:|---:|" + "---:|" * len(ENGINES) + ("---:|---:|" if args.against else ""))
    rows = []
    for i, model in enumerate(models):
        s = stats[i * len(variants)]
        if "error" in s:
            print(f"| {label_of(model)} | {s['error']} |")
            continue
        cyc = s["run_cycles_m4_estimate"]
        theirs = " | ".join("n/a" if p is None else f"{p / 1e6:.2f} M ({cyc / p:.2f}x)"
                            for p in PUBLISHED[label_of(model)])
        other = ""
        if args.against:
            o = stats[i * len(variants) + 1]
            other = (f" | {o['error']} | " if "error" in o else
                     f" | {o['run_instructions']:,} ({s['run_instructions'] / o['run_instructions']:.3f}x)"
                     f" | {o['arena_bytes']:,}")
        print(f"| {label_of(model)} | {s['run_instructions']:,} | {cyc:,} | {s['arena_bytes']:,} | {theirs}{other} |")
        rows.append({"model": label_of(model), "cpu": "cortex-m4", "stats": s})
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="*", help="STEM:CPU,CPU (default: see above)")
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--public", default=str(common.DEFAULT_PUBLIC_DIR))
    ap.add_argument("--work", help="scratch directory (default: a temporary one)")
    ap.add_argument("--json", help="also write the numbers here")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per QEMU run")
    ap.add_argument("--int8", action="store_true", help="the int8 MLPerf Tiny table instead")
    ap.add_argument("--int8-dir", default=str(common.DEFAULT_PUBLIC_DIR.parent / "int8"))
    ap.add_argument("--profile-dir", help="write per-statement profiles here")
    ap.add_argument("--against", help="compare the default build with these comma-separated "
                    "onnx-to-c options instead of the file-order, no-reuse build "
                    "(e.g. --against=--layout=nchw: the cost of a default side by side)")
    args = ap.parse_args()
    label = "file+linear"
    if args.against:
        VARIANTS["file+linear"] = args.against.split(",")
        label = args.against
    args.compiler = str(Path(args.compiler).resolve())
    if args.int8:
        tmp = None
        if not args.work:
            tmp = tempfile.TemporaryDirectory()
            args.work = tmp.name
        return int8_table(args)
    pub = Path(args.public)
    if not pub.is_dir():
        print(f"skipped: {pub} is absent")
        return 0
    runs = [r.rsplit(":", 1) for r in args.runs] or \
        [(m.stem, "cortex-m4,cortex-m7,cortex-m3" if m.stem in TINY else "cortex-m4")
         for m in sorted(pub.glob("*.onnx"))]
    jobs = [(pub / f"{stem}.onnx", cpu, v) for stem, cpus in runs for cpu in cpus.split(",") for v in VARIANTS]
    tmp = None
    if not args.work:
        tmp = tempfile.TemporaryDirectory()
        args.work = tmp.name
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = dict(zip(jobs, pool.map(lambda j: measure(args, *j), jobs)))

    head = ["instructions", "est. M4 cycles", "flash B", "RAM B", "arena B", "stack B"]
    print("| model | CPU | " + " | ".join(head) + " | " + " | ".join(f"{label} {h}" for h in head) + " |")
    print("|---|---|" + "---:|" * (2 * len(head)))
    table = []
    for stem, cpus in runs:
        for cpu in cpus.split(","):
            model = pub / f"{stem}.onnx"
            d, f = results[(model, cpu, "default")], results[(model, cpu, "file+linear")]
            print(f"| {stem} | {cpu} | " + " | ".join(cells(d)) + " | " + " | ".join(cells(f)) + " |")
            table.append({"model": stem, "cpu": cpu, "default": d, "file_linear": f})
    if args.json:
        Path(args.json).write_text(json.dumps(table, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
