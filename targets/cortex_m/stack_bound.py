#!/usr/bin/python3
"""Static worst-case stack of a function from GCC's call-graph files (-fcallgraph-info=su, with
-fstack-usage's frame sizes): the deepest path of frames in the call graph below ROOT.

    stack_bound.py net_run DIR...   (finds *.ci files under each DIR)

Prints `stack_bound_bytes=N` and the callees whose frames are unknown (library functions such as
memcpy, counted as 0 bytes; the measured stack in run-on-qemu.sh includes them). A call through a
pointer (a kernel's table of tile functions) counts as the deepest function that makes no such
call itself. Exits 1 when the
bound does not exist: recursion or a dynamic, unbounded frame.
"""
import re
import sys
from pathlib import Path

NODE = re.compile(r'^node: \{ title: "([^"]+)" label: "([^"]*)"')
EDGE = re.compile(r'^edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
INDIRECT = "__indirect_call"  # GCC's placeholder for a call through a pointer
FRAME = re.compile(r'\\n(\d+) bytes \(([a-z,]+)\)')


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    root, dirs = sys.argv[1], sys.argv[2:]
    frames, calls = {}, {}
    for d in dirs:
        for ci in sorted(Path(d).rglob("*.ci")):
            for line in ci.read_text(errors="replace").splitlines():
                if m := NODE.match(line):
                    f = FRAME.search(m.group(2))
                    if f:
                        if "dynamic" in f.group(2) and "bounded" not in f.group(2):
                            print(f"error: {m.group(1)} has an unbounded dynamic frame", file=sys.stderr)
                            return 1
                        frames[m.group(1)] = int(f.group(1))
                elif m := EDGE.match(line):
                    calls.setdefault(m.group(1), set()).add(m.group(2))
    if root not in frames:
        print(f"error: no frame size for {root}", file=sys.stderr)
        return 1
    unknown, depth, active = set(), {}, set()
    indirect_bound = []

    def makes_indirect_calls(fn, seen):
        if fn == INDIRECT:
            return True
        if fn in seen:
            return False
        seen.add(fn)
        return any(makes_indirect_calls(c, seen) for c in calls.get(fn, ()))

    def deepest_indirect():
        # Any function whose address is taken may be called; the kernels' tile
        # tables hold functions that make no indirect calls themselves, so the
        # deepest of those bounds the call (a target that did would be missed).
        if not indirect_bound:
            leaves = [f for f in frames if not makes_indirect_calls(f, set())]
            indirect_bound.append(max((deepest(f) for f in leaves), default=0))
        return indirect_bound[0]

    def deepest(fn):
        if fn == INDIRECT:
            return deepest_indirect()
        if fn in depth:
            return depth[fn]
        if fn in active:
            raise RecursionError(fn)
        if fn not in frames:
            unknown.add(fn.split(":")[-1])
            return 0
        active.add(fn)
        depth[fn] = frames[fn] + max((deepest(c) for c in calls.get(fn, ())), default=0)
        active.discard(fn)
        return depth[fn]

    try:
        bound = deepest(root)
    except RecursionError as e:
        print(f"error: recursion through {e}", file=sys.stderr)
        return 1
    print(f"stack_bound_bytes={bound}")
    if unknown:
        print("unknown frames (counted as 0): " + ", ".join(sorted(unknown)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
