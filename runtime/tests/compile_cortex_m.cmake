# Compiles every runtime kernel with arm-none-eabi-gcc for the configurations
# the compiler generates, each with the kernel folders of its --target
# (kernel_folders.cmake): Cortex-M4F and Cortex-M7 (single- and
# double-precision hard float) with OC_ARM_VMLA and the arm folder, as
# --target=cortex-m4/m7 define them, and Cortex-M0 (soft float, Thumb-1) with
# the reference kernels alone, as --target=cortex-m0/m3 take them; then with
# the x86 folder, whose files must compile on other cores as well (a model's C
# built for another core than its --target's). With the flags the generated code must pass (run with
# cmake -P; -DCC, -DRUNTIME (the runtime directory), -DOUT).
set(OC_RUNTIME_DIR ${RUNTIME})
include(${RUNTIME}/kernel_folders.cmake)
set(flags -std=c99 -pedantic -Wall -Wextra -Werror -O2 -ffp-contract=off)
set(m4 "-mcpu=cortex-m4|-mthumb|-mfloat-abi=hard|-mfpu=fpv4-sp-d16|-DOC_ARM_VMLA=1")
set(m7 "-mcpu=cortex-m7|-mthumb|-mfloat-abi=hard|-mfpu=fpv5-d16|-DOC_ARM_VMLA=1")
set(m0 "-mcpu=cortex-m0|-mthumb")
# CPU flags ! folders, first match first
set(configs "${m4}!arm|reference" "${m7}!arm|reference" "${m0}!reference" "${m0}!x86|reference")
file(MAKE_DIRECTORY ${OUT})
set(failed 0)
set(count 0)
foreach(config IN LISTS configs)
  string(REPLACE "!" ";" parts "${config}")
  list(GET parts 0 cpu_text)
  list(GET parts 1 folders)
  string(REPLACE "|" ";" cpu "${cpu_text}")
  string(REPLACE "|" ";" folders "${folders}")
  oc_runtime_pick(sources includes ${folders})
  set(include_flags "")
  foreach(dir IN LISTS includes)
    list(APPEND include_flags -I${dir})
  endforeach()
  foreach(src IN LISTS sources)
    get_filename_component(name ${src} NAME_WE)
    # float64 kernels use double by design; the others must not promote
    set(extra -Wdouble-promotion)
    if(name MATCHES "f64")
      set(extra "")
    endif()
    execute_process(COMMAND ${CC} ${cpu} ${flags} ${extra} ${include_flags} -c ${src}
                            -o ${OUT}/${name}.o
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    math(EXPR count "${count} + 1")
    if(NOT rc EQUAL 0)
      message("FAIL ${src} [${cpu_text}, ${folders}]\n${err}")
      set(failed 1)
    endif()
  endforeach()
endforeach()
if(failed)
  message(FATAL_ERROR "some kernels do not compile for Cortex-M")
endif()
message("${count} compilations: every kernel compiles for Cortex-M4F and Cortex-M7 (arm, then "
        "reference), Cortex-M0 (reference) and Cortex-M0 (x86, then reference)")
