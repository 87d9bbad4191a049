# CMake toolchain file for bare-metal Cortex-M with Debian's gcc-arm-none-eabi
# and libnewlib-arm-none-eabi:
#   cmake -DCMAKE_TOOLCHAIN_FILE=targets/cortex_m/arm-none-eabi.cmake ...
# CPU flags (-mcpu, -mfpu, -mfloat-abi) are the project's choice; the
# firmware project in targets/cortex_m/firmware sets them from OC_CPU.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy CACHE FILEPATH "")
set(CMAKE_SIZE arm-none-eabi-size CACHE FILEPATH "")

# No OS to link test programs against while probing the compiler.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
