# cmake -DBUILD=<build tree> -DPREFIX=<dir> -P install_fresh.cmake: installs
# the build tree into an empty PREFIX (no files left from earlier installs).
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD}" --prefix "${PREFIX}"
                RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD} --prefix ${PREFIX} failed")
endif()
foreach(file bin/onnx-to-c share/cmake/OnnxToC/OnnxToCConfig.cmake
             share/cmake/OnnxToC/OnnxToCConfigVersion.cmake share/cmake/OnnxToC/OnnxToCAddModel.cmake
             include/onnx_to_c/oc_common.h)
  if(NOT EXISTS "${PREFIX}/${file}")
    message(FATAL_ERROR "the install has no ${file}")
  endif()
endforeach()
