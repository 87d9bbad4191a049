"""--memory-map and fit first under --max-arena.

- A map that forces a split (a small fast region and a large slow one)
  compiles, and the planned IR says which region each buffer is in; one whose
  regions cannot hold a buffer fails (exit 1, nothing written) naming the
  buffer and by how many bytes; bad maps (two regions of one name, a zero size,
  an unknown key, not JSON, a missing file) are bad usage (exit 2) with an
  error naming the region and the key.
- --max-arena on a model that already fits writes exactly the files it writes
  without the flag.

    memory_map_tests.py --compiler onnx-to-c --work DIR
"""
import json
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
from run_cli_tests import CNN, ROOT, check, check_verifies, failures, parse_work_args, run  # noqa: E402


def write_map(work, tag, regions):
    path = work / f"{tag}.json"
    path.write_text(json.dumps({"regions": regions}) if isinstance(regions, list) else regions)
    return path


def files_of(out):
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def check_verify_gap(compiler, work, split):
    """verify accepts the split's report and rejects it with the access cost's gap to its bound changed."""
    rc, _, err = run(compiler, CNN, "-o", work / "gap_out", "--memory-map", split, "--report", work / "gap.json")
    check(rc == 0, f"a split map compiles with a report {err.strip()}")
    check_verifies(compiler, work / "gap.json", CNN, "a split map")
    report = json.loads((work / "gap.json").read_text())
    report["memory_map"]["access_cost_gap_percent"] += 5
    (work / "gap_tampered.json").write_text(json.dumps(report))
    rc, _, err = run(compiler, "verify", work / "gap_tampered.json", CNN)
    check(rc == 1 and "access cost gap" in err, f"verify rejects a changed access cost gap: {err.strip()[-200:]}")


def test_split(compiler, work):
    rc, _, err = run(compiler, CNN, "-o", work / "one", "--report", work / "one_report.json")
    check(rc == 0, f"cnn_small compiles {err.strip()}")
    report = json.loads((work / "one_report.json").read_text())
    biggest = max(b["bytes"] for b in report["buffers"] if b.get("location", "arena") == "arena")
    fast = max(16, (biggest // 2) // 16 * 16)
    split = write_map(work, "split", [{"name": "fast", "size": fast, "cost": 1},
                                      {"name": "slow", "size": 1 << 20, "cost": 8}])
    rc, _, err = run(compiler, CNN, "-o", work / "split_out", "--memory-map", split)
    check(rc == 0 and (work / "split_out").exists(), f"a split map ({fast} + 1 MiB) compiles {err.strip()}")
    check_verify_gap(compiler, work, split)
    rc, out, err = run(compiler, CNN, "--emit=planned", "--memory-map", split)
    check(rc == 0 and "per region" in out, f"--emit=planned shows the per-region plan {err.strip()}")
    # Regions below the biggest buffer: fit first patches the model so that
    # no buffer needs more than a region.
    below = write_map(work, "below", [{"name": "a", "size": biggest - 16, "cost": 1},
                                      {"name": "b", "size": biggest - 16, "cost": 2}])
    rc, _, err = run(compiler, CNN, "-o", work / "below_out", "--memory-map", below,
                     "--report", work / "below.json")
    check(rc == 0 and json.loads((work / "below.json").read_text())["patches"]["applied"],
          f"regions below the biggest buffer: patched to fit {err.strip()}")
    tiny = write_map(work, "tiny", [{"name": "a", "size": 64, "cost": 1}, {"name": "b", "size": 64, "cost": 2}])
    rc, _, err = run(compiler, CNN, "-o", work / "tiny_out", "--memory-map", tiny)
    lines = err.splitlines()
    check(rc == 1 and len(lines) == 1 and lines[0].startswith("error: ")
          and "does not fit the memory map (2 regions, 128 bytes)" in lines[0]
          and "more than the largest region (64 bytes)" in lines[0],
          f"regions that hold nothing fail naming the buffer and by how much: {err.strip()!r}")
    check(not (work / "tiny_out").exists(), "a map that does not fit writes nothing")


def test_bad_maps(compiler, work):
    bad = {
        "duplicate": ([{"name": "a", "size": 64}, {"name": "a", "size": 64}], "two regions are named 'a'"),
        "zero": ([{"name": "a", "size": 0}], "region 'a': \"size\""),
        "unknown_key": ([{"name": "a", "size": 64, "speed": 1}], "unknown key 'speed'"),
        "not_json": ("{\"regions\": [", "not JSON"),
    }
    for tag, (regions, needle) in bad.items():
        path = write_map(work, tag, regions)
        rc, _, err = run(compiler, CNN, "-o", work / f"{tag}_out", "--memory-map", path)
        check(rc == 2 and err.startswith("error: ") and needle in err.splitlines()[0]
              and str(path) in err.splitlines()[0] and not (work / f"{tag}_out").exists(),
              f"bad map {tag}: exit 2 naming {needle!r}: {err.strip()!r}")
    rc, _, err = run(compiler, CNN, "-o", work / "missing_out", "--memory-map", work / "missing.json")
    check(rc == 2 and "cannot read memory map" in err, f"a missing map is bad usage: {err.strip()!r}")


def test_max_arena_that_fits(compiler, work):
    for name in ("cnn_small", "maxpool_2x2", "int8_qdq_layers"):
        model = ROOT / "models" / name / "model.onnx"
        rc, _, err = run(compiler, model, "-o", work / f"{name}_plain", "--report", work / f"{name}_plain.json")
        if rc != 0:
            check(False, f"{name} compiles {err.strip()}")
            continue
        arena = json.loads((work / f"{name}_plain.json").read_text())["arena_bytes"]
        rc, _, err = run(compiler, model, "-o", work / f"{name}_limit", f"--max-arena={arena}")
        check(rc == 0 and files_of(work / f"{name}_plain") == files_of(work / f"{name}_limit"),
              f"{name}: --max-arena={arena} (it fits) writes the same files as no limit {err.strip()}")


def main():
    args = parse_work_args()
    test_split(args.compiler, args.work)
    test_bad_maps(args.compiler, args.work)
    test_max_arena_that_fits(args.compiler, args.work)
    print(f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
