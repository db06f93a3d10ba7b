# Every public header of core (core/include/dirac/*.hpp) compiles on its own, included twice, after
# Qt's keyword macros (`slots`, `signals`, `emit`): a header that leans on an include of its
# includer, lacks its guard, or uses a Qt keyword as a name (a member `slots` broke the GUI build
# once, docs/ci.md) is reported with the compiler's first error.
#
#   cmake -DCXX=<compiler> -DINCLUDE_DIR=<core/include> -DEIGEN_DIR=<dir> -DWORK_DIR=<dir>
#         -P CheckPublicHeaders.cmake                 check every public header
#   ... -DPLANT=ON -P CheckPublicHeaders.cmake        self-test: beside a copy of error.hpp, plant a
#       header that uses std::vector without including <vector>; the check must report it alone.

foreach(_var CXX INCLUDE_DIR WORK_DIR)
  if(NOT ${_var})
    message(FATAL_ERROR "pass -D${_var}=...")
  endif()
endforeach()

# Sets ${out} to the headers of `include_dir`/dirac that do not compile alone.
function(dirac_check_public_headers include_dir work out)
  set(_failed "")
  file(GLOB _headers RELATIVE ${include_dir}/dirac ${include_dir}/dirac/*.hpp)
  list(SORT _headers)
  file(MAKE_DIRECTORY ${work})
  foreach(_h IN LISTS _headers)
    string(REPLACE ".hpp" ".cpp" _name "${_h}")
    file(WRITE ${work}/${_name}
         "#define slots\n#define signals public\n#define emit\n"
         "#include \"dirac/${_h}\"\n#include \"dirac/${_h}\"\n")
    set(_eigen "")
    if(EIGEN_DIR)
      set(_eigen -isystem ${EIGEN_DIR})
    endif()
    execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only -I ${include_dir} ${_eigen}
                            ${work}/${_name}
                    RESULT_VARIABLE _rc ERROR_VARIABLE _err OUTPUT_QUIET)
    if(NOT _rc EQUAL 0)
      string(FIND "${_err}" "error" _at)
      string(SUBSTRING "${_err}" ${_at} -1 _first)
      string(FIND "${_first}" "\n" _end)
      string(SUBSTRING "${_first}" 0 ${_end} _first)
      string(REPLACE ";" "," _first "${_first}")  # "expected ';'" must not split the list
      list(APPEND _failed "dirac/${_h}: ${_first}")
    endif()
  endforeach()
  list(LENGTH _headers _n)
  set(${out} "${_failed}" PARENT_SCOPE)
  set(${out}_count ${_n} PARENT_SCOPE)
endfunction()

if(PLANT)
  set(_copy ${WORK_DIR}/public_headers_plant/include)
  file(REMOVE_RECURSE ${WORK_DIR}/public_headers_plant)
  # One real header beside the planted one (a check that reports every header fails here too).
  file(COPY ${INCLUDE_DIR}/dirac/error.hpp DESTINATION ${_copy}/dirac)
  file(WRITE ${_copy}/dirac/planted.hpp
       "#pragma once\nnamespace dirac {\nint Count(const std::vector<int>& values);\n}\n")
  dirac_check_public_headers(${_copy} ${WORK_DIR}/public_headers_plant/check _failed)
  list(LENGTH _failed _n)
  if(NOT _n EQUAL 1 OR NOT _failed MATCHES "^dirac/planted.hpp: ")
    message(FATAL_ERROR "the planted header was not reported alone; got:\n${_failed}")
  endif()
  message(STATUS "planted header reported: ${_failed}")
  return()
endif()

dirac_check_public_headers(${INCLUDE_DIR} ${WORK_DIR}/public_headers_check _failed)
if(_failed)
  string(REPLACE ";" "\n  " _text "${_failed}")
  message(FATAL_ERROR "public headers that do not compile on their own:\n  ${_text}")
endif()
message(STATUS "${_failed_count} public headers compile on their own (after Qt's keyword macros)")
