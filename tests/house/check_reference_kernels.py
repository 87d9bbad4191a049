#!/usr/bin/python3
"""The runtime's reference kernels hold no target code, and every optimized file replaces one.

    check_reference_kernels.py [--runtime DIR]    (default: runtime/ beside tests/)

runtime/reference (and the interface, runtime/include) is the portable definition of every
result: no file there may hold a target conditional (#if on a core's or an instruction set's
macro, or on a macro that only an optimized folder defines), an intrinsic or an intrinsics
header, inline assembler, or a vector extension. Comments may name them. The optimized
folders (runtime/arm, runtime/x86, ...) hold files of the same names that replace reference
ones: every kernel there (src/*.c) needs a reference kernel of the same name, and every header
either replaces a reference or interface header of the same name or is a helper of its own
folder that no reference file includes. A tree from before the split (runtime/src) is checked
as all reference. Exit status 1 with one line per finding.
"""
import argparse
import re
import sys
from pathlib import Path

# Compiler macros a portable file may test (attributes, C++ guards, the C version).
PORTABLE_MACROS = {"__GNUC__", "__clang__", "__cplusplus", "__STDC__", "__STDC_VERSION__"}
# The project's own macros that name a target feature (set by an optimized folder's headers,
# by the generated code for a --target, or by the build for a lane width).
TARGET_MACROS = re.compile(r"\b(OC_ARM_\w+|OC_LANE_VECTOR|OC_Q8_DSP|OC_REQUANT_(VCVTR|SAT8)|"
                           r"OC_NHWC_ARM|OC_WLANE\w*|QGEMM_DSP_|QPW_DSP_|QNHWC_DENSE_ASM|"
                           r"ONNX_TO_C_AVX_LANES|ONNX_TO_C_NO_VECTOR_EXT)\b")
CONDITIONAL = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif)\b(.*)$")
FINDINGS = [
    ("an intrinsics header", re.compile(
        r"#\s*include\s*<(arm_acle|arm_neon|arm_mve|\w*intrin|cmsis_\w+)\.h>")),
    ("inline assembler", re.compile(r"\b(__asm__|__asm|asm)\s*(volatile|__volatile__)?\s*\(")),
    ("an intrinsic", re.compile(
        r"\b(__(smla|smlsd|smul|sxt|uxt|qadd|qsub|ssat|usat|usad|sadd|ssub|uadd|usub|pkh|sel|clz"
        r"|rev|ror)\w*|_mm\d*_\w+|v(ld|st)\d\w*q?_\w+|__builtin_(shuffle|shufflevector|ia32_\w+"
        r"|arm_\w+|neon_\w+))\s*\(")),
    ("a vector extension", re.compile(
        r"\b(vector_size|ext_vector_type|__m128\w*|__m256\w*|__m512\w*|float32x4_t|int8x16_t)\b")),
]


def strip_comments(text):
    """The text with /* */ and // comments blanked (line numbers kept); strings kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text[i] == '"':
            m = re.compile(r'"(\\.|[^"\\\n])*"').match(text, i)
            j = m.end() if m else i + 1
            out.append(text[i:j])
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def target_conditional(condition):
    """Why the #if condition is a target conditional, or None."""
    m = TARGET_MACROS.search(condition)
    if m:
        return m.group(0)
    for name in re.findall(r"\b__\w+", condition):
        if name not in PORTABLE_MACROS:
            return name
    return None


def check_portable(path, root):
    found = []
    code = strip_comments(path.read_text())
    for number, line in enumerate(code.split("\n"), 1):
        where = f"{path.relative_to(root)}:{number}"
        m = CONDITIONAL.match(line)
        if m:
            why = target_conditional(m.group(2))
            if why:
                found.append(f"{where}: a target conditional ({why}): {line.strip()}")
        for what, pattern in FINDINGS:
            if pattern.search(line):
                found.append(f"{where}: {what}: {line.strip()}")
    return found


def included_headers(path):
    return set(re.findall(r'#\s*include\s*"onnx_to_c/(\w+\.h)"', path.read_text()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runtime", default=str(Path(__file__).resolve().parents[2] / "runtime"))
    args = ap.parse_args()
    root = Path(args.runtime).resolve()
    reference = root / "reference"
    portable_dirs = [root / "include", reference] if reference.is_dir() else [root / "include",
                                                                               root / "src"]
    portable = sorted(p for d in portable_dirs for p in d.rglob("*") if p.suffix in (".c", ".h"))
    if not portable:
        print(f"FAIL: no reference kernels under {root}")
        return 1
    found = []
    for path in portable:
        found += check_portable(path, root)
    ref_kernels = {p.name for p in (reference / "src").glob("*.c")}
    ref_headers = {p.name for p in portable if p.suffix == ".h"}
    ref_includes = set().union(*(included_headers(p) for p in portable))
    folders = sorted(d for d in root.iterdir()
                     if d.is_dir() and d.name not in ("reference", "include", "src", "tests"))
    optimized = 0
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".c", ".h"):
                continue
            optimized += 1
            where = path.relative_to(root)
            if path.suffix == ".c" and path.name not in ref_kernels:
                found.append(f"{where}: an optimized kernel with no reference kernel of its name")
            if path.suffix == ".h" and path.name not in ref_headers and path.name in ref_includes:
                found.append(f"{where}: a reference file includes it, but reference has none of "
                             "its name")
    for line in found:
        print(line)
    if found:
        print(f"FAIL: {len(found)} findings in {len(portable)} reference files and {optimized} "
              f"optimized ones ({', '.join(f.name for f in folders) or 'none'})")
        return 1
    print(f"ok: {len(portable)} reference and interface files hold no target code; {optimized} "
          f"files in {', '.join(f.name for f in folders) or 'no optimized folder'}, each kernel "
          "replacing a reference one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
