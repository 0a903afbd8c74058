# Copies FILE into the cache folder DIR as CACHED, by way of PARTIAL (cmake -DDIR= -DFILE= -DPARTIAL= -DCACHED= -P).
# A cache that cannot be written (a read-only home, a full disk) only costs the next tree a training:
# it never fails the build.
execute_process(COMMAND ${CMAKE_COMMAND} -E make_directory "${DIR}" RESULT_VARIABLE made)
if(made EQUAL 0)
  execute_process(COMMAND ${CMAKE_COMMAND} -E copy "${FILE}" "${PARTIAL}" RESULT_VARIABLE copied)
  if(copied EQUAL 0)
    execute_process(COMMAND ${CMAKE_COMMAND} -E rename "${PARTIAL}" "${CACHED}")
  endif()
endif()
