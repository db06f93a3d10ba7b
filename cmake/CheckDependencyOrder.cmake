# The dependency order of core's folders (docs/ARCHITECTURE.md, "Dependency order"): a file in a
# folder may include headers of its own folder and of folders earlier in the list, never later.
# Public headers (core/include/dirac/*.hpp) are placed in a folder's layer by the table below; a
# header or folder missing from it is an error, so new code must be placed.
#
#   cmake -DCORE_DIR=<core> -P CheckDependencyOrder.cmake            check the tree
#   cmake -DCORE_DIR=<core> -DWORK_DIR=<dir> -DPLANT=ON -P ...        self-test: copy core, plant
#       an include of control/ into base/, and require the check to report exactly that file.

set(DIRAC_LAYERS
    base io families symbolic scenario geometry dynamics model lagrange_dirac constraints formulation
    control sweep linearization)

# Public header -> layer.
set(DIRAC_PUBLIC_HEADERS
    error.hpp=base
    trajectory.hpp=base
    derivation_control.hpp=base
    csv.hpp=io
    families.hpp=families
    torus_modes.hpp=families
    symbolic_lock.hpp=symbolic
    parse_once.hpp=symbolic
    scenario.hpp=scenario
    scenario_spec.hpp=scenario
    scenario_io.hpp=scenario
    scenario_overrides.hpp=scenario
    source_location.hpp=scenario
    simulation_settings.hpp=scenario
    view_spec.hpp=scenario
    optimal_control_spec.hpp=scenario
    scene_options.hpp=scenario
    scenario_text.hpp=scenario
    integrators.hpp=scenario
    multibody_spec.hpp=scenario
    body_poses.hpp=scenario
    simulation_types.hpp=dynamics
    poincare_section.hpp=dynamics
    model.hpp=model
    gauge_two_form.hpp=lagrange_dirac
    constrained_system.hpp=constraints
    build_model.hpp=formulation
    shooting.hpp=control
    optimal_control.hpp=control
    sweep.hpp=sweep
    linearization.hpp=linearization)

function(_dirac_layer_index name out)
  list(FIND DIRAC_LAYERS "${name}" _i)
  set(${out} ${_i} PARENT_SCOPE)
endfunction()

function(_dirac_header_layer header out)
  set(_layer "")
  foreach(_entry IN LISTS DIRAC_PUBLIC_HEADERS)
    string(REPLACE "=" ";" _pair "${_entry}")
    list(GET _pair 0 _h)
    list(GET _pair 1 _l)
    if(_h STREQUAL header)
      set(_layer ${_l})
    endif()
  endforeach()
  set(${out} "${_layer}" PARENT_SCOPE)
endfunction()

# Sets ${out} to the list of problems found under `core`.
function(dirac_check_dependency_order core out)
  set(_problems "")
  file(GLOB_RECURSE _files RELATIVE ${core} ${core}/src/* ${core}/include/*)
  foreach(_rel IN LISTS _files)
    if(NOT _rel MATCHES "\\.(hpp|cpp|h)$")
      continue()
    endif()
    # The layer of the file itself.
    if(_rel MATCHES "^include/dirac/([^/]+)$")
      _dirac_header_layer("${CMAKE_MATCH_1}" _own)
      if(_own STREQUAL "")
        list(APPEND _problems "${_rel}: public header not placed in a layer (add it to "
                              "DIRAC_PUBLIC_HEADERS and docs/ARCHITECTURE.md)")
        continue()
      endif()
    elseif(_rel MATCHES "^src/([^/]+)/")
      set(_own ${CMAKE_MATCH_1})
    else()
      list(APPEND _problems "${_rel}: not inside a layer folder")
      continue()
    endif()
    _dirac_layer_index(${_own} _own_index)
    if(_own_index LESS 0)
      list(APPEND _problems "${_rel}: folder '${_own}' is not in the dependency order")
      continue()
    endif()
    file(STRINGS ${core}/${_rel} _includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(_line IN LISTS _includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" _target "${_line}")
      if(_target MATCHES "^dirac/([^/]+)$")
        _dirac_header_layer("${CMAKE_MATCH_1}" _layer)
        if(_layer STREQUAL "")
          list(APPEND _problems "${_rel}: includes ${_target}, which is not placed in a layer")
          continue()
        endif()
      elseif(_target MATCHES "^([^/]+)/")
        set(_layer ${CMAKE_MATCH_1})
      else()
        list(APPEND _problems "${_rel}: include \"${_target}\" names no layer")
        continue()
      endif()
      _dirac_layer_index(${_layer} _index)
      if(_index LESS 0)
        list(APPEND _problems "${_rel}: includes ${_target} from unknown folder '${_layer}'")
      elseif(_index GREATER _own_index)
        list(APPEND _problems
             "${_rel} (layer ${_own}) includes ${_target} (layer ${_layer}, later in the order)")
      endif()
    endforeach()
  endforeach()
  set(${out} "${_problems}" PARENT_SCOPE)
endfunction()

if(NOT CORE_DIR)
  message(FATAL_ERROR "pass -DCORE_DIR=<core directory>")
endif()

if(PLANT)
  # Self-test: the check must catch a planted violation, and only that one.
  set(_copy ${WORK_DIR}/dependency_order_plant/core)
  file(REMOVE_RECURSE ${WORK_DIR}/dependency_order_plant)
  file(COPY ${CORE_DIR}/src ${CORE_DIR}/include DESTINATION ${_copy})
  file(APPEND ${_copy}/src/base/trajectory.cpp "\n#include \"control/planted.hpp\"\n")
  dirac_check_dependency_order(${_copy} _problems)
  list(LENGTH _problems _n)
  if(NOT _n EQUAL 1 OR NOT _problems MATCHES "src/base/trajectory.cpp \\(layer base\\) includes control/planted.hpp")
    message(FATAL_ERROR "the planted include was not reported alone; got:\n${_problems}")
  endif()
  message(STATUS "planted violation reported: ${_problems}")
  return()
endif()

dirac_check_dependency_order(${CORE_DIR} _problems)
if(_problems)
  string(REPLACE ";" "\n  " _text "${_problems}")
  message(FATAL_ERROR "core's dependency order is violated:\n  ${_text}")
endif()
string(REPLACE ";" " -> " _order "${DIRAC_LAYERS}")
message(STATUS "dependency order holds: ${_order}")
