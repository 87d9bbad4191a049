# `cmake --install` makes an OnnxToC package for find_package(): the compiler,
# the runtime's headers and sources, OnnxToCConfig.cmake with its version file
# and onnx_to_c_add_model() (cmake/OnnxToCAddModel.cmake).
include(CMakePackageConfigHelpers)

set(ONNX_TO_C_INSTALL_CMAKE_DIR "${CMAKE_INSTALL_DATADIR}/cmake/OnnxToC")
set(ONNX_TO_C_INSTALL_RUNTIME_SOURCE_DIR "${CMAKE_INSTALL_DATADIR}/onnx_to_c/runtime")

install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/onnx_to_c
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
# The kernel folders as in the source tree (reference, arm, x86: <folder>/src/*.c and
# <folder>/include/onnx_to_c/*.h).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/ DESTINATION ${ONNX_TO_C_INSTALL_RUNTIME_SOURCE_DIR}
        FILES_MATCHING PATTERN "*.[ch]" REGEX "runtime/(include|tests)" EXCLUDE)

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/OnnxToCConfig.cmake.in
  ${PROJECT_BINARY_DIR}/OnnxToCConfig.cmake
  INSTALL_DESTINATION ${ONNX_TO_C_INSTALL_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_INCLUDEDIR ONNX_TO_C_INSTALL_RUNTIME_SOURCE_DIR)
# ARCH_INDEPENDENT: the package holds a host tool, so a project cross-compiling
# for a 32-bit MCU must accept it from a 64-bit host.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/OnnxToCConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion
  ARCH_INDEPENDENT)
install(FILES
  ${PROJECT_BINARY_DIR}/OnnxToCConfig.cmake
  ${PROJECT_BINARY_DIR}/OnnxToCConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/OnnxToCAddModel.cmake
  DESTINATION ${ONNX_TO_C_INSTALL_CMAKE_DIR})
