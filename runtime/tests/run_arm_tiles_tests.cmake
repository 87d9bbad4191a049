# Runs arm_tiles_tests.c on the host and, under QEMU, as firmware for
# Cortex-M4F and Cortex-M7 with OC_ARM_VMLA and the arm kernel folder (the
# DSP and FPU micro-kernels), for Cortex-M4F with the reference kernels
# alone, and for Cortex-M3 (reference, soft float). Every run must pass its
# own bit-for-bit checks and print the host's digests, so the Arm kernels
# give the bits of their reference kernels, on the same core and on x86-64.
# (cmake -P; -DCC=arm-none-eabi-gcc -DQEMU=qemu-system-arm -DHOST_EXE=...
#  -DHOST_REFERENCE_EXE=... (the same tests on the reference kernels alone)
#  -DROOT=source dir -DOUT=build dir)
set(OC_RUNTIME_DIR ${ROOT}/runtime)
include(${OC_RUNTIME_DIR}/kernel_folders.cmake)
set(bed ${ROOT}/targets/cortex_m)
set(kernels conv2d conv2d_nhwc conv1x1_overlap gemm qgemm qgemm_packed qconv qconv2d qconv_pointwise qconv_column
            qconv1x1_overlap qconv1x1_overlap_packed qconv2d_packed qconv_dw3x3 qconv2d_packed4
            qconv2d_nhwc qconv_pw_nhwc qconv_stem_nhwc qconv1x1_overlap_pairs qbinary qconv_w4)
set(flags -std=c99 -pedantic -Wall -Wextra -Werror -Wdouble-promotion -O2 -ffp-contract=off
          -DOC_TEST_SEMIHOSTING -I${bed})
set(link -nostartfiles --specs=nano.specs -L${bed} -T${bed}/mps2.ld -Wl,--gc-sections -lm)
# name|QEMU machine|compiler flags (comma-separated)|kernel folders (comma-separated): the
# Armv7E-M kernels on the M4F and M7 (there the 8-bit channels-last windows in pairs wherever
# two are adjacent), and on the M4F the reference ones they replace
set(targets
  "cortex-m4|mps2-an386|-mcpu=cortex-m4,-mthumb,-mfloat-abi=hard,-mfpu=fpv4-sp-d16,-DOC_ARM_VMLA=1|arm,reference"
  "cortex-m7|mps2-an500|-mcpu=cortex-m7,-mthumb,-mfloat-abi=hard,-mfpu=fpv5-d16,-DOC_ARM_VMLA=1,-DOC_QNHWC_PAIR_MIN=1|arm,reference"
  "cortex-m4-reference|mps2-an386|-mcpu=cortex-m4,-mthumb,-mfloat-abi=hard,-mfpu=fpv4-sp-d16,-DOC_ARM_VMLA=1|reference"
  "cortex-m3|mps2-an385|-mcpu=cortex-m3,-mthumb,-mfloat-abi=soft|reference")
file(MAKE_DIRECTORY ${OUT})

execute_process(COMMAND ${HOST_EXE} RESULT_VARIABLE rc OUTPUT_VARIABLE host_out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "host run failed (${rc}):\n${host_out}")
endif()
string(REGEX MATCHALL "case [^\n]*" host_cases "${host_out}")
list(LENGTH host_cases n_cases)
# the host's reference kernels (HOST_REFERENCE_EXE) give the same digests
execute_process(COMMAND ${HOST_REFERENCE_EXE} RESULT_VARIABLE rc OUTPUT_VARIABLE ref_out)
string(REGEX MATCHALL "case [^\n]*" ref_cases "${ref_out}")
if(NOT rc EQUAL 0 OR NOT ref_cases STREQUAL host_cases)
  message(FATAL_ERROR "the host's reference kernels differ from its optimized ones (${rc}):\n${ref_out}")
endif()

set(failed 0)
foreach(target IN LISTS targets)
  string(REPLACE "|" ";" parts "${target}")
  list(GET parts 0 name)
  list(GET parts 1 machine)
  list(GET parts 2 cpu)
  list(GET parts 3 folders)
  string(REPLACE "," ";" cpu "${cpu}")
  string(REPLACE "," ";" folders "${folders}")
  oc_runtime_pick(picked includes ${folders})
  set(sources ${OC_RUNTIME_DIR}/tests/arm_tiles_tests.c ${bed}/startup.c ${bed}/semihosting.c)
  foreach(src IN LISTS picked)
    get_filename_component(kernel ${src} NAME_WE)
    list(FIND kernels ${kernel} at)
    if(at GREATER -1)
      list(APPEND sources ${src})
    endif()
  endforeach()
  set(include_flags "")
  foreach(dir IN LISTS includes)
    list(APPEND include_flags -I${dir})
  endforeach()
  set(elf ${OUT}/arm_tiles_${name}.elf)
  execute_process(COMMAND ${CC} ${cpu} ${flags} ${include_flags} ${sources} ${link} -o ${elf}
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
