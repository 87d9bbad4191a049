# Turns the runtime's C sources into a C++ table so the compiler can embed the
# kernels a model needs into the generated code (run with cmake -P).
#   -DOUT=<file.cc> -DRUNTIME=<runtime dir> -DFILES=<a|b|...> (absolute paths)
# A file's folder is "include" for the interface (runtime/include/onnx_to_c),
# else the kernel folder it lies in (runtime/<folder>/src or
# runtime/<folder>/include/onnx_to_c): reference, arm, x86.
set(body "// Generated from runtime/ by embed_runtime.cmake. Do not edit.\n")
string(APPEND body "#include \"targets/c99/runtime_sources.h\"\n\nnamespace oc {\n")
string(APPEND body "const std::vector<EmbeddedRuntimeFile>& EmbeddedRuntimeFiles() {\n")
string(APPEND body "  static const std::vector<EmbeddedRuntimeFile> kFiles = {\n")
string(REPLACE "|" ";" FILES "${FILES}")
foreach(path IN LISTS FILES)
  get_filename_component(name "${path}" NAME)
  file(RELATIVE_PATH rel "${RUNTIME}" "${path}")
  string(REGEX REPLACE "/.*" "" folder "${rel}")
  file(READ "${path}" text)
  # Raw string literals with a delimiter the sources never contain.
  string(APPEND body "    {\"${folder}\", \"${name}\", R\"OCRT(${text})OCRT\"},\n")
endforeach()
string(APPEND body "  };\n  return kFiles;\n}\n}  // namespace oc\n")
file(WRITE "${OUT}.tmp" "${body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
