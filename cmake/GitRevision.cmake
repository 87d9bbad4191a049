# onnx_to_c_git_revision(<out-var>): `git describe --always --dirty` of the
# source tree, or empty when the source tree is not itself the top of a git
# checkout (a release tarball, or a copy vendored inside another repository).
function(onnx_to_c_git_revision out_var)
  set(revision "")
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --show-toplevel
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
      OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE top_result ERROR_QUIET)
    if(top_result EQUAL 0)
      get_filename_component(top "${top}" REALPATH)
      get_filename_component(source "${PROJECT_SOURCE_DIR}" REALPATH)
    endif()
    if(top_result EQUAL 0 AND top STREQUAL source)
      execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --tags
        WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
        OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE
        RESULT_VARIABLE describe_result ERROR_QUIET)
      if(NOT describe_result EQUAL 0)
        set(revision "")
      endif()
    endif()
  endif()
  set(${out_var} "${revision}" PARENT_SCOPE)
endfunction()
