# ctest: the portable and the native program must print the same spike digest (and run).
execute_process(COMMAND ${PORTABLE} OUTPUT_VARIABLE portable RESULT_VARIABLE portable_failed)
execute_process(COMMAND ${NATIVE} OUTPUT_VARIABLE native RESULT_VARIABLE native_failed)
message(STATUS "portable: ${portable}native:   ${native}")
if(portable_failed OR native_failed OR NOT portable STREQUAL native)
  message(FATAL_ERROR "the portable and the -march=native builds spike differently")
endif()
