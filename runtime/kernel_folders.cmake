# oc_runtime_pick(SOURCES_VAR INCLUDES_VAR FOLDER...): the kernels of the
# runtime in OC_RUNTIME_DIR, each from the first of the folders that has it
# (runtime/<folder>/src), and the folders' include directories in that order,
# then the interface's (runtime/include). The code generator picks the files
# of a --target the same way (targets/c99/runtime_text.h).
function(oc_runtime_pick sources_var includes_var)
  set(configure_depends CONFIGURE_DEPENDS)  # re-globbed by the build, not in cmake -P
  if(CMAKE_SCRIPT_MODE_FILE)
    set(configure_depends "")
  endif()
  set(names "")
  set(sources "")
  set(includes "")
  foreach(folder IN LISTS ARGN)
    list(APPEND includes ${OC_RUNTIME_DIR}/${folder}/include)
    file(GLOB files ${configure_depends} ${OC_RUNTIME_DIR}/${folder}/src/*.c)
    list(SORT files)
    foreach(file IN LISTS files)
      get_filename_component(name ${file} NAME)
      list(FIND names ${name} at)  # not IN_LIST: cmake -P scripts have the old policies
      if(at LESS 0)
        list(APPEND names ${name})
        list(APPEND sources ${file})
      endif()
    endforeach()
  endforeach()
  list(APPEND includes ${OC_RUNTIME_DIR}/include)
  set(${sources_var} ${sources} PARENT_SCOPE)
  set(${includes_var} ${includes} PARENT_SCOPE)
endfunction()
