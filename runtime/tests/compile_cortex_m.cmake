# Compiles every runtime kernel with arm-none-eabi-gcc for the configurations
# the compiler generates: Cortex-M4F and Cortex-M7 (single- and double-precision
# hard float) with OC_ARM_VMLA, as --target=cortex-m4/m7 define it, and
# Cortex-M0 (soft float, Thumb-1), whose portable code is also what M4/M7 get
# without OC_ARM_VMLA and what --target=cortex-m3 gets, with the flags the
# generated code must pass (run with cmake -P; -DCC, -DINCLUDE, -DSOURCES (a
# list), -DOUT).
set(flags -std=c99 -pedantic -Wall -Wextra -Werror -O2 -ffp-contract=off -I${INCLUDE})
set(cpus "-mcpu=cortex-m4|-mthumb|-mfloat-abi=hard|-mfpu=fpv4-sp-d16|-DOC_ARM_VMLA=1"
         "-mcpu=cortex-m7|-mthumb|-mfloat-abi=hard|-mfpu=fpv5-d16|-DOC_ARM_VMLA=1"
         "-mcpu=cortex-m0|-mthumb")
file(MAKE_DIRECTORY ${OUT})
set(failed 0)
foreach(src IN LISTS SOURCES)
  get_filename_component(name ${src} NAME_WE)
  # float64 kernels use double by design; the others must not promote
  set(extra -Wdouble-promotion)
  if(name MATCHES "f64")
    set(extra "")
  endif()
  foreach(cpu_text IN LISTS cpus)
    string(REPLACE "|" ";" cpu "${cpu_text}")
    execute_process(COMMAND ${CC} ${cpu} ${flags} ${extra} -c ${src} -o ${OUT}/${name}.o
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message("FAIL ${name}.c [${cpu_text}]\n${err}")
      set(failed 1)
    endif()
  endforeach()
endforeach()
if(failed)
  message(FATAL_ERROR "some kernels do not compile for Cortex-M")
endif()
message("all kernels compile for Cortex-M4F, Cortex-M7 and Cortex-M0")
