# The dependency order of ui's rooms (ui/README.md and docs/ARCHITECTURE.md, "Dependency order"): a source in
# ui/<room>/ may include core's public headers ("dirac/...") and headers of its own room or of
# rooms earlier in DIRAC_UI_ROOMS, never of a later room. A quoted include must name its room
# ("scenes/scene_kit.hpp"); a source outside the rooms or in a room not listed is an error.
# VTK is the scenes' own: only ui/scenes/ may include <vtk*.h>.
#
#   cmake -DUI_DIR=<ui> -P CheckUiRoomOrder.cmake                     check the tree
#   cmake -DUI_DIR=<ui> -DWORK_DIR=<dir> -DPLANT=ON -P ...            self-test: copy ui, plant an
#       include of window/ into run/, and require the check to report exactly that file.

if(NOT UI_DIR)
  message(FATAL_ERROR "pass -DUI_DIR=<ui directory>")
endif()

set(DIRAC_UI_ROOMS run scenes plots panels window)

# Appends to ${out} what is wrong with the quoted includes of ui/${rel} (room index ${own}).
function(_dirac_ui_check_includes ui rel own out)
  set(_found "")
  file(STRINGS ${ui}/${rel} _lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(_line IN LISTS _lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" _header "${_line}")
    if(_header MATCHES "^dirac/[^/]+$")
      continue() # core's public API: every room may use it
    endif()
    if(NOT _header MATCHES "^([a-z_]+)/[^/]+$")
      list(APPEND _found "${rel}: include \"${_header}\" names no room")
      continue()
    endif()
    set(_room ${CMAKE_MATCH_1})
    list(FIND DIRAC_UI_ROOMS ${_room} _at)
    if(_at LESS 0)
      list(APPEND _found "${rel}: includes ${_header} from '${_room}', which is no room")
    elseif(_at GREATER own)
      list(GET DIRAC_UI_ROOMS ${own} _own_name)
      list(APPEND _found "${rel} (room ${_own_name}) includes ${_header} (room ${_room}, later)")
    endif()
  endforeach()
  list(GET DIRAC_UI_ROOMS ${own} _own_name)
  if(NOT _own_name STREQUAL "scenes")
    file(STRINGS ${ui}/${rel} _vtk REGEX "^[ \t]*#[ \t]*include[ \t]*<vtk")
    if(_vtk)
      list(APPEND _found "${rel} (room ${_own_name}) includes VTK, which only scenes/ may")
    endif()
  endif()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

# Sets ${out} to the list of problems found under `ui`.
function(dirac_check_ui_rooms ui out)
  set(_problems "")
  file(GLOB_RECURSE _sources RELATIVE ${ui} ${ui}/*.cpp ${ui}/*.hpp ${ui}/*.h)
  foreach(_rel IN LISTS _sources)
    if(NOT _rel MATCHES "^([a-z_]+)/[^/]+$")
      list(APPEND _problems "${_rel}: not directly inside a room folder")
      continue()
    endif()
    list(FIND DIRAC_UI_ROOMS ${CMAKE_MATCH_1} _own)
    if(_own LESS 0)
      list(APPEND _problems "${_rel}: folder '${CMAKE_MATCH_1}' is not in the room order")
      continue()
    endif()
    _dirac_ui_check_includes(${ui} ${_rel} ${_own} _file_problems)
    list(APPEND _problems ${_file_problems})
  endforeach()
  set(${out} "${_problems}" PARENT_SCOPE)
endfunction()

set(_checked ${UI_DIR})
if(PLANT)
  # Self-test: a copy of ui/ with one include of a later room planted in run/; the check must
  # report that include and nothing else.
  set(_checked ${WORK_DIR}/ui_room_order_plant/ui)
  file(REMOVE_RECURSE ${WORK_DIR}/ui_room_order_plant)
  file(COPY ${UI_DIR}/ DESTINATION ${_checked})
  file(APPEND ${_checked}/run/run_budget.cpp "\n#include \"window/main_window.hpp\"\n")
endif()
dirac_check_ui_rooms(${_checked} _problems)
set(_planted
    "run/run_budget.cpp (room run) includes window/main_window.hpp (room window, later)")
if(PLANT AND NOT _problems STREQUAL _planted)
  message(FATAL_ERROR "expected exactly the planted include (${_planted}), got:\n${_problems}")
elseif(PLANT)
  message(STATUS "planted include reported: ${_problems}")
elseif(_problems)
  list(JOIN _problems "\n  " _listing)
  message(FATAL_ERROR "ui's room order is violated:\n  ${_listing}")
else()
  list(JOIN DIRAC_UI_ROOMS " -> " _chain)
  message(STATUS "ui room order holds: ${_chain}")
endif()
