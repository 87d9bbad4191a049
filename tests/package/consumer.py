"""Configuring and building a consumer project against an installed onnx-to-c
(the package tests in this folder). Run with /usr/bin/python3."""
import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
# The cmake that built onnx-to-c (ctest passes it), else the one on PATH.
CMAKE = os.environ.get("ONNX_TO_C_CMAKE", "cmake")
# Generated code and examples must be warning-free.
STRICT_CFLAGS = "-Wall -Wextra -Werror -pedantic"


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def skip(message):
    print(f"SKIP: {message}")
    sys.exit(77)


def run(cmd, cwd=None, env=None):
    """Runs a command; returns (returncode, stdout + stderr)."""
    p = subprocess.run([str(c) for c in cmd], cwd=cwd, env=dict(os.environ, **(env or {})),
                       capture_output=True, text=True, errors="replace", stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout + p.stderr


def configure(source, build, prefix, *definitions, fresh=True):
    """cmake -S source -B build with Ninja, the package from `prefix` and strict C flags."""
    if fresh and build.exists():
        shutil.rmtree(build)
    cmd = [CMAKE, "-S", source, "-B", build, "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}",
           "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", *definitions]
    rc, out = run(cmd, env={"CFLAGS": STRICT_CFLAGS})
    if rc != 0:
        fail(f"configuring {source} failed:\n{out}")


def build(build_dir, check=True):
    """Builds with `ninja -v`; returns (returncode, output with every command that ran)."""
    rc, out = run([CMAKE, "--build", build_dir, "--", "-v", "-j2"])
    if check and rc != 0:
        fail(f"building {build_dir} failed:\n{out}")
    return rc, out


def commands_run(ninja_output):
    """The command lines of a `ninja -v` build ('[3/5] cmd' lines)."""
    cmds = []
    for line in ninja_output.splitlines():
        if line.startswith("[") and "] " in line:
            cmds.append(line.split("] ", 1)[1])
    return cmds


def parse_args():
    """--prefix (the installed package) and --work (a scratch folder), as every test takes."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", required=True, type=Path)
    ap.add_argument("--work", required=True, type=Path)
    return ap.parse_args()
