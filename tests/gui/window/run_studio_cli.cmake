# Runs `dirac-studio SCENARIO --play-to PLAY_TO --screenshot PNG` under Xvfb and checks the
# outcome. EXPECT=success: exit 0 and a plausible PNG. EXPECT=failure: non-zero exit, a message
# naming the scenario, no PNG. Invoked by ctest with -D XVFB_RUN, STUDIO, SCENARIO, PLAY_TO,
# PNG, EXPECT.
file(REMOVE ${PNG})
execute_process(
  COMMAND ${XVFB_RUN} -a -s "-screen 0 1600x1000x24" ${STUDIO} ${SCENARIO}
          --play-to ${PLAY_TO} --screenshot ${PNG}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
message(STATUS "dirac-studio exit: ${rc}\nstdout: ${out}\nstderr: ${err}")

if(EXPECT STREQUAL "success")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dirac-studio --screenshot failed (exit ${rc})")
  endif()
  if(NOT EXISTS ${PNG})
    message(FATAL_ERROR "exit 0 but no screenshot at ${PNG}")
  endif()
  file(SIZE ${PNG} size)
  if(size LESS 20000)
    message(FATAL_ERROR "screenshot ${PNG} is suspiciously small (${size} bytes)")
  endif()
  file(READ ${PNG} header LIMIT 8 HEX)
  if(NOT header STREQUAL "89504e470d0a1a0a")
    message(FATAL_ERROR "${PNG} is not a PNG file")
  endif()
  message(STATUS "screenshot ${PNG}: ${size} bytes")
else()
  if(rc EQUAL 0)
    message(FATAL_ERROR "dirac-studio exited 0 for an unreadable scenario")
  endif()
  if(NOT rc MATCHES "^[0-9]+$")
    message(FATAL_ERROR "dirac-studio did not exit cleanly: ${rc}")
  endif()
  get_filename_component(name ${SCENARIO} NAME)
  if(NOT err MATCHES "${name}")
    message(FATAL_ERROR "the error message does not name ${name}")
  endif()
  if(EXISTS ${PNG})
    message(FATAL_ERROR "a screenshot was written despite the error")
  endif()
endif()
