# onnx_to_c_add_model(<target> MODEL <file.onnx>
#                     [NAME <c-name>] [TARGET <cpu>] [IO arena|caller] [MAX_ARENA <bytes>]
#                     [MEMORY_MAP <board.json>] [REQUIRE_CERTIFIED]
#                     [REPORT <file.json>] [HTML_REPORT <file.html>] [OPTIONS <option>...])
#
# Compiles an ONNX model into C99 at build time and adds a static library
# <target> (alias OnnxToC::<target>) that holds it:
#
#   find_package(OnnxToC 0.1 REQUIRED)
#   onnx_to_c_add_model(kws MODEL kws.onnx MAX_ARENA 64K)
#   target_link_libraries(firmware PRIVATE OnnxToC::kws)    # then #include "kws.h"
#
#   MODEL        the .onnx file (relative paths: to the current source directory)
#   NAME         C prefix: <name>.h, <name>_run(), <NAME>_ARENA_SIZE (default: <target> made
#                into a C identifier); also the target property ONNX_TO_C_NAME
#   TARGET       the CPU to generate code for, passed as `--target <cpu>` (values:
#                `onnx-to-c --help`); without it, x86-64: portable C99 plus <name>_avx2.c,
#                the same statements for AVX2 CPUs, chosen at run time (give the target
#                here or as --target=<cpu> in OPTIONS, so the function knows that file)
#   IO           where the model's inputs and outputs live, passed as `--io <where>`: `arena`
#                (inside the planned arena: <name>_input(i), <name>_output(i), <name>_invoke())
#                or `caller` (caller buffers passed to <name>_run()); default: the target's
#                (arena on the Cortex-M targets, caller on x86-64); <name>_run() works in both
#   MAX_ARENA    fail the build when the arena needs more than this many bytes (65536, 64K,
#                2M); the error names the arena, the lower bound and the biggest buffers live
#                at the peak step
#   MEMORY_MAP   the board's RAM regions (JSON, docs/cli.md; examples in targets/memory_maps),
#                passed as `--memory-map <file>` (relative paths: to the current source
#                directory): one array per region in its own linker section; the build fails
#                when no split fits; the C is regenerated when the map changes
#   REQUIRE_CERTIFIED  fail the build unless the operator order is certified optimal
#   REPORT       also write the JSON report (docs/report.md) to this file
#   HTML_REPORT  also write the HTML report to this file (relative paths of both reports: to the
#                current binary directory)
#   OPTIONS      further command-line options (docs/cli.md), e.g. --search-effort=3
#
# The C goes to ${CMAKE_CURRENT_BINARY_DIR}/onnx_to_c/<target>/ and is regenerated when the model
# or the compiler changes. Files whose contents did not change keep their timestamps, so code
# that includes <name>.h recompiles only when the model's interface changes. The generated C
# embeds the runtime kernels it uses: it needs nothing else but libm. The include directory and
# libm are usage requirements of <target>; -ffp-contract=off (no FMA contraction, so results are
# the same on every target) and -fno-fast-math apply to the generated code. The compiler runs on
# the build host, also when cross-compiling: ONNX_TO_C_EXECUTABLE names it.
if(CMAKE_VERSION VERSION_LESS 3.15)
  message(FATAL_ERROR "onnx_to_c_add_model() needs CMake 3.15 or newer")
endif()
# The function keeps these policies whatever the calling project asks for.
cmake_policy(PUSH)
cmake_policy(VERSION 3.15)
function(onnx_to_c_add_model target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "REQUIRE_CERTIFIED"
                        "MODEL;NAME;TARGET;IO;MAX_ARENA;MEMORY_MAP;REPORT;HTML_REPORT" "OPTIONS")
  set(where "onnx_to_c_add_model(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_MODEL)
    message(FATAL_ERROR "${where}: MODEL <file.onnx> is required")
  endif()
  if(NOT ONNX_TO_C_EXECUTABLE)
    message(FATAL_ERROR "${where}: ONNX_TO_C_EXECUTABLE is not set (call find_package(OnnxToC) first)")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "C" IN_LIST languages)
    message(FATAL_ERROR "${where}: the project must enable the C language, e.g. project(app C)")
  endif()

  get_filename_component(model "${arg_MODEL}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(name "${arg_NAME}")
  if(name STREQUAL "")
    string(MAKE_C_IDENTIFIER "${target}" name)
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${where}: NAME '${name}' is not a C identifier")
  endif()

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/onnx_to_c/${target}")
  set(outputs "${out_dir}/${name}.h" "${out_dir}/${name}.c")
  # The x86-64 target (the default) also writes NAME_avx2.c: the statements
  # compiled for AVX2, chosen at run time on CPUs that have it.
  set(effective_target "${arg_TARGET}")
  foreach(option IN LISTS arg_OPTIONS)
    if(option MATCHES "^--target=(.*)$")
      set(effective_target "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(sources "${out_dir}/${name}.c")
  if(effective_target STREQUAL "" OR effective_target STREQUAL "x86-64")
    list(APPEND outputs "${out_dir}/${name}_avx2.c")
    list(APPEND sources "${out_dir}/${name}_avx2.c")
  endif()
  set(args "${model}" -o "${out_dir}" --name "${name}")
  if(NOT "${arg_TARGET}" STREQUAL "")
    list(APPEND args --target "${arg_TARGET}")
  endif()
  if(NOT "${arg_IO}" STREQUAL "")
    if(NOT arg_IO MATCHES "^(arena|caller)$")
      message(FATAL_ERROR "${where}: IO '${arg_IO}' is neither arena nor caller")
    endif()
    list(APPEND args --io "${arg_IO}")
  endif()
  if(NOT "${arg_MAX_ARENA}" STREQUAL "")
    list(APPEND args --max-arena "${arg_MAX_ARENA}")
  endif()
  set(memory_map "")
  if(NOT "${arg_MEMORY_MAP}" STREQUAL "")
    get_filename_component(memory_map "${arg_MEMORY_MAP}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args --memory-map "${memory_map}")
  endif()
  if(arg_REQUIRE_CERTIFIED)
    list(APPEND args --require-certified)
  endif()
  foreach(kind REPORT HTML_REPORT)
    if(NOT "${arg_${kind}}" STREQUAL "")
      get_filename_component(path "${arg_${kind}}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
      string(TOLOWER "--${kind}" option)
      string(REPLACE "_" "-" option "${option}")
      list(APPEND args "${option}" "${path}")
      list(APPEND outputs "${path}")
    endif()
  endforeach()
  list(APPEND args ${arg_OPTIONS})

  # The executable by path, never by target name: a cross-compiling project's
  # CROSSCOMPILING_EMULATOR must not wrap a host tool.
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND "${ONNX_TO_C_EXECUTABLE}" ${args}
    DEPENDS "${model}" ${memory_map} "${ONNX_TO_C_EXECUTABLE}"
    COMMENT "onnx-to-c: compiling ${arg_MODEL} into ${name}.c"
    VERBATIM)

  add_library(${target} STATIC ${sources} "${out_dir}/${name}.h")
  add_library(OnnxToC::${target} ALIAS ${target})
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${out_dir}>")
  set_target_properties(${target} PROPERTIES
    C_STANDARD 99
    C_STANDARD_REQUIRED ON
    C_EXTENSIONS OFF
    ONNX_TO_C_NAME "${name}")
  target_compile_options(${target} PRIVATE
    "$<$<C_COMPILER_ID:GNU,Clang,AppleClang>:-ffp-contract=off;-fno-fast-math>")
  # -lm, not m: a target of the project named m must not stand in for libm.
  target_link_libraries(${target} PUBLIC "$<$<NOT:$<C_COMPILER_ID:MSVC>>:-lm>")
endfunction()
cmake_policy(POP)
