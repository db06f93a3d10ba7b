# Runs `dirac-studio SCENARIO --play-to PLAY_TO --record OUT --size 1280x720` (on the display
# that gui_test_env.sh gives the test) and checks the recording: for a video (.mp4, .gif), ffprobe counts its decoded frames, which must
# be 30 per second of played time (PLAY_TO at the default speed 1), and reads 30 fps; for a
# folder, the PNG frames are counted. Invoked by ctest with -D STUDIO, SCENARIO,
# PLAY_TO, OUT, FFPROBE.
file(REMOVE_RECURSE ${OUT})
execute_process(
  COMMAND ${STUDIO} ${SCENARIO} --play-to ${PLAY_TO} --record ${OUT} --size 1280x720
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 500)
message(STATUS "dirac-studio exit: ${rc}\nstdout: ${out}\nstderr: ${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dirac-studio --record failed (exit ${rc})")
endif()
math(EXPR expected "${PLAY_TO} * 30")
if(IS_DIRECTORY ${OUT})
  file(GLOB frames ${OUT}/frame_*.png)
  list(LENGTH frames count)
else()
  if(NOT EXISTS ${OUT})
    message(FATAL_ERROR "exit 0 but nothing at ${OUT}")
  endif()
  execute_process(
    COMMAND ${FFPROBE} -v error -count_frames -select_streams v:0
            -show_entries stream=nb_read_frames,r_frame_rate,width,height -of csv=p=0 ${OUT}
    RESULT_VARIABLE probe_rc OUTPUT_VARIABLE probe ERROR_VARIABLE probe_err)
  message(STATUS "ffprobe: ${probe} ${probe_err}")
  if(NOT probe_rc EQUAL 0)
    message(FATAL_ERROR "ffprobe cannot read ${OUT}: ${probe_err}")
  endif()
  # "width,height,30/1,frames"
  string(STRIP "${probe}" probe)
  string(REPLACE "," ";" fields "${probe}")
  list(GET fields 2 rate)
  list(GET fields 3 count)
  if(NOT rate STREQUAL "30/1")
    message(FATAL_ERROR "${OUT} plays at ${rate} frames per second, not 30/1")
  endif()
endif()
if(NOT count EQUAL expected)
  message(FATAL_ERROR "${OUT} has ${count} frames, expected ${expected} (30 fps x ${PLAY_TO} s)")
endif()
message(STATUS "${OUT}: ${count} frames = 30 fps x ${PLAY_TO} s")
