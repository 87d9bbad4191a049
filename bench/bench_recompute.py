#!/usr/bin/python3
"""Selective recompute benchmark: what --recompute=on saves and costs, per model.

    /usr/bin/python3 bench/bench_recompute.py --compiler build/onnx-to-c [--public DIR]
        [--models DIR] [--cap K] [--budget PCT] [--work DIR]

For every public model (DIR/*.onnx, default ../shared/models/public from the repo root;
skipped cleanly if absent) and every test model under --models (default models/; all of
them with --all-models, otherwise the recompute_* ones and the other networks; and the
hard scheduling cases under hard/) it compiles
twice, in one run:
  onnx-to-c MODEL --report R.json                                   (no recompute)
  onnx-to-c MODEL --report R.json --recompute=on --search-effort=7
and prints, from the reports:
  arena off / on       the arena without and with recompute ("arena_bytes")
  peak off / on        the modeled peaks
  clones               statements run a second time
  extra MACs, %        "recompute_extra_macs", "recompute_mac_overhead_percent"
  exact                the least peak of any recompute program within the caps
                       ("recompute.exact_search"), where the program has at most 15
                       statements and the search finished; "-" otherwise
"""
import argparse
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "bench"))
from bench_arena import report  # noqa: E402

NETWORKS = ["cnn_small", "residual_block", "unet_block", "se_block", "mlp_small",
            "two_inputs_two_outputs"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--public", default=str(ROOT.parent / "shared/models/public"))
    ap.add_argument("--models", default=str(ROOT / "models"))
    ap.add_argument("--all-models", action="store_true")
    ap.add_argument("--cap", default="1")
    ap.add_argument("--budget", default="1")
    ap.add_argument("--work")
    args = ap.parse_args()
    cases = []
    public = Path(args.public)
    if public.is_dir():
        cases += [(m.stem, m) for m in sorted(public.glob("*.onnx"))]
    else:
        print(f"no public models in {public}: test models only")
    for d in sorted(Path(args.models).glob("*/model.onnx")):
        name = d.parent.name
        if args.all_models or name.startswith("recompute_") or name in NETWORKS:
            cases.append((name, d))
    cases += [("hard/" + d.parent.name, d) for d in sorted(Path(args.models).glob("hard/*/model.onnx"))]
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="oc-bench-recompute-"))
    on_args = ["--recompute=on", f"--recompute-cap={args.cap}", f"--recompute-mac-budget={args.budget}",
               "--search-effort=7"]
    print(f"cap {args.cap}, MAC budget {args.budget}%")
    print("| model | statements | arena off | arena on | drop | peak off | peak on | clones | "
          "extra MACs | MACs % | exact peak |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, model in cases:
        tag = name.replace("/", "_")
        off = report(args.compiler, model.resolve(), work / tag / "off", [])
        on = report(args.compiler, model.resolve(), work / tag / "on", on_args)
        rc = on["recompute"]
        exact = rc["exact_search"]
        drop = 100.0 * (1 - on["arena_bytes"] / off["arena_bytes"]) if off["arena_bytes"] else 0.0
        print(f"| {name} | {off['statements']} | {off['arena_bytes']} | {on['arena_bytes']} | "
              f"{drop:.1f}% | {off['peak_bytes']} | {on['peak_bytes']} | {len(rc['clones'])} | "
              f"{on['recompute_extra_macs']} | {on['recompute_mac_overhead_percent']:.3f} | "
              f"{exact['peak_bytes'] if exact['finished'] else '-'} |")
        if on["arena_bytes"] > off["arena_bytes"] or on["peak_bytes"] > off["peak_bytes"]:
            print(f"WARNING: {name}: recompute made it worse")
    return 0


if __name__ == "__main__":
    sys.exit(main())
