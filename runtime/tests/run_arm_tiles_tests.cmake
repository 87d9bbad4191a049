# Runs arm_tiles_tests.c on the host and, under QEMU, as firmware for
# Cortex-M4F and Cortex-M7 with OC_ARM_VMLA (the micro-kernels of
# oc_arm_tiles.h) and for Cortex-M3 (the portable tiles, soft float). Every
# run must pass its own bit-for-bit checks and print the host's digests, so
# the Arm kernels give the x86-64 bits.
# (cmake -P; -DCC=arm-none-eabi-gcc -DQEMU=qemu-system-arm -DHOST_EXE=...
#  -DROOT=source dir -DOUT=build dir)
set(runtime ${ROOT}/runtime)
set(bed ${ROOT}/targets/cortex_m)
set(sources ${runtime}/tests/arm_tiles_tests.c ${runtime}/src/conv2d.c ${runtime}/src/conv2d_nhwc.c
            ${runtime}/src/conv1x1_overlap.c ${runtime}/src/gemm.c ${runtime}/src/qgemm.c ${runtime}/src/qconv.c
            ${runtime}/src/qconv2d.c ${runtime}/src/qconv_pointwise.c ${runtime}/src/qconv_column.c ${runtime}/src/qconv1x1_overlap.c
            ${runtime}/src/qconv1x1_overlap_packed.c ${runtime}/src/qconv2d_packed.c ${runtime}/src/qconv_dw3x3.c ${runtime}/src/qconv2d_packed4.c
            ${runtime}/src/qconv2d_nhwc.c
            ${runtime}/src/qbinary.c
            ${bed}/startup.c
            ${bed}/semihosting.c)
set(flags -std=c99 -pedantic -Wall -Wextra -Werror -Wdouble-promotion -O2 -ffp-contract=off
          -DOC_TEST_SEMIHOSTING -I${runtime}/include -I${bed})
set(link -nostartfiles --specs=nano.specs -L${bed} -T${bed}/mps2.ld -Wl,--gc-sections -lm)
# name|QEMU machine|compiler flags (comma-separated)
set(targets
  "cortex-m4|mps2-an386|-mcpu=cortex-m4,-mthumb,-mfloat-abi=hard,-mfpu=fpv4-sp-d16,-DOC_ARM_VMLA=1"
  "cortex-m7|mps2-an500|-mcpu=cortex-m7,-mthumb,-mfloat-abi=hard,-mfpu=fpv5-d16,-DOC_ARM_VMLA=1"
  "cortex-m3|mps2-an385|-mcpu=cortex-m3,-mthumb,-mfloat-abi=soft")
file(MAKE_DIRECTORY ${OUT})

execute_process(COMMAND ${HOST_EXE} RESULT_VARIABLE rc OUTPUT_VARIABLE host_out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "host run failed (${rc}):\n${host_out}")
endif()
string(REGEX MATCHALL "case [^\n]*" host_cases "${host_out}")
list(LENGTH host_cases n_cases)

set(failed 0)
foreach(target IN LISTS targets)
  string(REPLACE "|" ";" parts "${target}")
  list(GET parts 0 name)
  list(GET parts 1 machine)
  list(GET parts 2 cpu)
  string(REPLACE "," ";" cpu "${cpu}")
  set(elf ${OUT}/arm_tiles_${name}.elf)
  execute_process(COMMAND ${CC} ${cpu} ${flags} ${sources} ${link} -o ${elf}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message("FAIL ${name}: build\n${err}")
    set(failed 1)
    continue()
  endif()
  set(console ${OUT}/arm_tiles_${name}.txt)
  file(REMOVE ${console})
  execute_process(COMMAND ${QEMU} -M ${machine} -nographic -monitor none -serial null
                          -chardev file,id=console,path=${console}
                          -semihosting-config enable=on,target=native,chardev=console -kernel ${elf}
                  TIMEOUT 300 RESULT_VARIABLE rc OUTPUT_VARIABLE qemu_out ERROR_VARIABLE qemu_out)
  set(out "")
  if(EXISTS ${console})
    file(READ ${console} out)
  endif()
  string(REGEX MATCHALL "case [^\n]*" cases "${out}")
  if(NOT rc EQUAL 0)
    message("FAIL ${name}: QEMU exit status ${rc}\n${out}${qemu_out}")
    set(failed 1)
  elseif(NOT cases STREQUAL host_cases)
    foreach(line IN LISTS cases)
      list(FIND host_cases "${line}" at)
      if(at LESS 0)
        message("FAIL ${name}: '${line}' differs from the host")
      endif()
    endforeach()
    message("FAIL ${name}: the outputs differ from the host's")
    set(failed 1)
  else()
    message("${name}: ${n_cases} cases, bit-identical to the host")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "the Cortex-M tile tests failed")
endif()
