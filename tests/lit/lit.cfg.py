# lit configuration for onnx-to-c. Run through the generated lit.site.cfg.py
# in the build tree (ctest -R lit), which sets the config.oc_* paths.
import os

import lit.formats

config.name = "onnx-to-c"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ir", ".test"]
# Model generators and other helpers live in Inputs/ directories.
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))

if not hasattr(config, "oc_build_dir"):
    lit_config.fatal("run lit on the build tree's tests/lit (it holds the generated "
                     "lit.site.cfg.py), e.g. `ctest -R lit` from the build directory")

config.test_exec_root = config.oc_exec_root


def tool(name):
    path = os.path.join(config.oc_build_dir, name)
    if not os.path.exists(path):
        lit_config.fatal("%s not found in %s: build it first" % (name, config.oc_build_dir))
    return path


filecheck = config.oc_filecheck
if not os.path.exists(filecheck):
    lit_config.fatal("FileCheck not found at %s (set ONNX_TO_C_FILECHECK)" % filecheck)

# Longest names first, so that no substitution is a prefix of a later one.
config.substitutions.append(("%onnx-to-c", tool("onnx-to-c")))
config.substitutions.append(("%oc-opt", tool("oc-opt")))
config.substitutions.append(("%FileCheck", filecheck))
config.substitutions.append(("%models", os.path.join(config.oc_source_dir, "models")))
config.substitutions.append(("%python", config.oc_python))

# A stable environment for the tools.
config.environment["LC_ALL"] = "C"
