# Instrumented builds.
#   -DONNX_TO_C_SANITIZE=address,undefined  the compiler, runtime and tests with
#                                           ASan + UBSan (any -fsanitize= list)
#   -DONNX_TO_C_FUZZ=ON                     libFuzzer targets (clang only); implies
#                                           address,undefined unless set otherwise
set(ONNX_TO_C_SANITIZE "" CACHE STRING "Comma-separated -fsanitize= list, e.g. address,undefined")
option(ONNX_TO_C_FUZZ "Build the libFuzzer targets in tests/fuzz (needs clang)" OFF)

if(ONNX_TO_C_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "ONNX_TO_C_FUZZ needs clang (e.g. CXX=clang++-14 CC=clang-14)")
  endif()
  if(ONNX_TO_C_SANITIZE STREQUAL "")
    set(ONNX_TO_C_SANITIZE "address,undefined")
  endif()
  # Coverage feedback for every library; the targets add -fsanitize=fuzzer.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(NOT ONNX_TO_C_SANITIZE STREQUAL "")
  # Every finding stops the program, so a test cannot pass with a report. -g1:
  # line tables for the reports, without the full debug info that doubles the build.
  add_compile_options(-fsanitize=${ONNX_TO_C_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -g1)
  add_link_options(-fsanitize=${ONNX_TO_C_SANITIZE} -fno-sanitize-recover=all)
  # GCC's instrumentation makes -Wmaybe-uninitialized report false positives
  # (in libstdc++'s variant and regex), which would fail the -Werror C code.
  add_compile_options($<$<C_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
endif()
