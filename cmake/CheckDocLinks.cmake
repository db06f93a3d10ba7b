# The documentation's links hold: every relative link and image in README.md and docs/*.md names
# a file or folder of the repository, every #anchor into a Markdown file names one of its headings
# (GitHub's rule: lower case, ASCII punctuation and common typographic signs dropped, spaces to
# hyphens, "-1", "-2" for repeated headings) or an explicit <a id>/<a name>, every
# `bash scripts/<file>` names an existing script, README.md says `bash scripts/test.sh` (.ci/run
# calls it) and stays a landing page of at most 10 240 bytes.
# Links inside fenced code blocks and inline code are not links and are not checked; http(s) and
# mailto links are not followed.
#
#   cmake -DROOT=<repository> -P CheckDocLinks.cmake                   check the documentation
#   cmake -DROOT=<repository> -DWORK_DIR=<dir> -DPLANT=ON -P ...        self-test: copy README.md
#       and docs/*.md, plant a link to a missing file, an unknown anchor and padding past the
#       size limit in the copy of README.md, and require the check to report exactly those three.

cmake_minimum_required(VERSION 3.22)

set(DIRAC_README_MAX_BYTES 10240)

# Placeholders for the characters CMake lists treat specially, so that a line is one element.
set(_SC "@DIRAC_SEMICOLON@")
set(_LB "@DIRAC_LBRACKET@")
set(_RB "@DIRAC_RBRACKET@")

# Sets ${out} to the lines of `path` with ; [ ] replaced by the placeholders.
function(_doc_lines path out)
  file(READ "${path}" _text)
  string(REPLACE ";" "${_SC}" _text "${_text}")
  string(REPLACE "[" "${_LB}" _text "${_text}")
  string(REPLACE "]" "${_RB}" _text "${_text}")
  string(REPLACE "\\" "/" _text "${_text}")
  string(REPLACE "\n" ";" _text "${_text}")
  set(${out} "${_text}" PARENT_SCOPE)
endfunction()

# Sets ${out} to the GitHub anchor of heading text (placeholders already in it).
function(_doc_slug text out)
  # Inline links keep their text; code keeps its content.
  string(REGEX REPLACE "${_RB}\\([^)]*\\)" "" text "${text}")
  foreach(_p "${_SC}" "${_LB}" "${_RB}")
    string(REPLACE "${_p}" "" text "${text}")
  endforeach()
  string(TOLOWER "${text}" text)
  string(REGEX REPLACE "[!-,./:-@^`{-~]" "" text "${text}")
  string(REPLACE "/" "" text "${text}")
  # Non-ASCII punctuation and symbols that occur in headings (GitHub drops them too).
  foreach(_sign "—" "–" "×" "·" "→" "≤" "≥" "…" "’" "“" "”" "≈" "±" "−" "⊃" "°")
    string(REPLACE "${_sign}" "" text "${text}")
  endforeach()
  string(REPLACE " " "-" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# At a fence line (``` or ~~~) sets ${fence} TRUE and flips ${state} (inside a fenced code block
# or not); elsewhere sets ${fence} FALSE.
function(_doc_fence line state fence)
  set(${fence} FALSE PARENT_SCOPE)
  if(line MATCHES "^ *(```|~~~)")
    set(${fence} TRUE PARENT_SCOPE)
    if(${state})
      set(${state} OFF PARENT_SCOPE)
    else()
      set(${state} ON PARENT_SCOPE)
    endif()
  endif()
endfunction()

# Sets ${out} to the anchors a Markdown file defines.
function(_doc_anchors path out)
  _doc_lines("${path}" _lines)
  set(_anchors "")
  set(_fenced OFF)
  foreach(_line IN LISTS _lines)
    _doc_fence("${_line}" _fenced _fence)
    if(_fence)
      continue()
    endif()
    if(_fenced)
      continue()
    endif()
    string(REGEX MATCHALL "<a (id|name)=\"[^\"]+\"" _explicit "${_line}")
    foreach(_a IN LISTS _explicit)
      string(REGEX REPLACE "^<a (id|name)=\"([^\"]+)\"" "\\2" _a "${_a}")
      list(APPEND _anchors "${_a}")
    endforeach()
    if(_line MATCHES "^ ? ? ?#+[ \t]+(.*)$")
      string(REGEX REPLACE "[ \t]+#*[ \t]*$" "" _heading "${CMAKE_MATCH_1}")
      _doc_slug("${_heading}" _slug)
      set(_unique "${_slug}")
      set(_n 0)
      while(TRUE)
        list(FIND _anchors "${_unique}" _seen)
        if(_seen LESS 0)
          break()
        endif()
        math(EXPR _n "${_n} + 1")
        set(_unique "${_slug}-${_n}")
      endwhile()
      list(APPEND _anchors "${_unique}")
    endif()
  endforeach()
  set(${out} "${_anchors}" PARENT_SCOPE)
endfunction()

# Appends to ${problems} what is wrong with the links of `rel` (a path relative to the
# repository). The text is read from ${content_root}/rel; targets are looked up in `root`, and
# the anchors of a target from its copy under content_root if there is one.
function(_doc_check_file root content_root rel problems)
  set(_problems "${${problems}}")
  get_filename_component(_dir "${rel}" DIRECTORY)
  _doc_lines("${content_root}/${rel}" _lines)
  set(_fenced OFF)
  set(_number 0)
  foreach(_line IN LISTS _lines)
    math(EXPR _number "${_number} + 1")
    _doc_fence("${_line}" _fenced _fence)
    if(_fence)
      continue()
    endif()
    # Scripts named in commands, code included.
    string(REGEX MATCHALL "bash scripts/[A-Za-z0-9_.-]+" _scripts "${_line}")
    foreach(_s IN LISTS _scripts)
      string(REPLACE "bash " "" _s "${_s}")
      if(NOT EXISTS "${root}/${_s}")
        list(APPEND _problems "${rel}:${_number}: command names ${_s}, which does not exist")
      endif()
    endforeach()
    if(_fenced)
      continue()
    endif()
    string(REGEX REPLACE "`[^`]*`" "" _line "${_line}")
    string(REGEX MATCHALL "${_RB}\\([^) ]+( \"[^\"]*\")?\\)" _links "${_line}")
    string(REGEX MATCHALL "(src|href)=\"[^\"]+\"" _html "${_line}")
    set(_targets "")
    foreach(_l IN LISTS _links)
      string(REGEX REPLACE "^${_RB}\\(([^) ]+).*$" "\\1" _l "${_l}")
      list(APPEND _targets "${_l}")
    endforeach()
    foreach(_l IN LISTS _html)
      string(REGEX REPLACE "^(src|href)=\"([^\"]+)\"$" "\\2" _l "${_l}")
      list(APPEND _targets "${_l}")
    endforeach()
    foreach(_target IN LISTS _targets)
      if(_target MATCHES "^[a-zA-Z][a-zA-Z0-9+.-]*:")
        continue()  # http:, https:, mailto:
      endif()
      set(_anchor "")
      if(_target MATCHES "^([^#]*)#(.*)$")
        set(_target "${CMAKE_MATCH_1}")
        set(_anchor "${CMAKE_MATCH_2}")
      endif()
      string(REPLACE "%20" " " _target "${_target}")
      if(_target STREQUAL "")
        set(_file "${rel}")
      elseif(_target MATCHES "^/")
        set(_file "${_target}")
      elseif(_dir STREQUAL "")
        set(_file "${_target}")
      else()
        set(_file "${_dir}/${_target}")
      endif()
      get_filename_component(_abs "${root}/${_file}" ABSOLUTE)
      if(NOT EXISTS "${_abs}")
        list(APPEND _problems "${rel}:${_number}: link to ${_target}: no such file")
        continue()
      endif()
      if(_anchor STREQUAL "" OR NOT _abs MATCHES "\\.md$")
        continue()
      endif()
      file(RELATIVE_PATH _target_rel "${root}" "${_abs}")
      set(_read "${_abs}")
      if(EXISTS "${content_root}/${_target_rel}")
        set(_read "${content_root}/${_target_rel}")
      endif()
      _doc_anchors("${_read}" _anchors)
      list(FIND _anchors "${_anchor}" _found)
      if(_found LESS 0)
        list(APPEND _problems
             "${rel}:${_number}: link to ${_target}#${_anchor}: no such heading in ${_target_rel}")
      endif()
    endforeach()
  endforeach()
  set(${problems} "${_problems}" PARENT_SCOPE)
endfunction()

# Sets ${out} to the problems of README.md and docs/*.md, read from content_root, against the
# repository at root.
function(dirac_check_doc_links root content_root out)
  set(_problems "")
  file(GLOB _docs RELATIVE "${content_root}" "${content_root}/docs/*.md")
  list(SORT _docs)
  foreach(_rel README.md ${_docs})
    _doc_check_file("${root}" "${content_root}" "${_rel}" _problems)
  endforeach()
  file(SIZE "${content_root}/README.md" _size)
  if(_size GREATER DIRAC_README_MAX_BYTES)
    list(APPEND _problems "README.md: ${_size} bytes, more than ${DIRAC_README_MAX_BYTES} for a \
landing page (move the detail into docs/)")
  endif()
  file(READ "${content_root}/README.md" _readme)
  string(FIND "${_readme}" "bash scripts/test.sh" _at)
  if(_at LESS 0)
    list(APPEND _problems "README.md: does not say `bash scripts/test.sh` (.ci/run runs it)")
  endif()
  set(${out} "${_problems}" PARENT_SCOPE)
endfunction()

# message(mode) of a header and the problems, one a line.
function(_doc_report mode header problems)
  string(REPLACE ";" "\n  " _text "${problems}")
  message(${mode} "${header}:\n  ${_text}")
endfunction()

if(NOT ROOT)
  message(FATAL_ERROR "pass -DROOT=<repository>")
endif()

if(PLANT)
  # Self-test: a missing file, an unknown anchor and an oversized README, reported and nothing
  # else.
  set(_copy "${WORK_DIR}/doc_links_plant")
  file(REMOVE_RECURSE "${_copy}")
  file(GLOB _docs "${ROOT}/docs/*.md")
  file(COPY ${_docs} DESTINATION "${_copy}/docs")
  file(COPY "${ROOT}/README.md" DESTINATION "${_copy}")
  string(REPEAT "x" ${DIRAC_README_MAX_BYTES} _padding)
  file(APPEND "${_copy}/README.md"
       "\nSee [a page](docs/planted-missing-page.md) and [a section](docs/README.md#planted-missing-section).\n"
       "<!-- ${_padding} -->\n")
  dirac_check_doc_links("${ROOT}" "${_copy}" _problems)
  # Each planted fault once, and nothing else.
  set(_left "${_problems}")
  foreach(_planted "^README.md:[0-9]+: link to docs/planted-missing-page.md: no such file$"
                   "^README.md:[0-9]+: link to docs/README.md#planted-missing-section: no such heading"
                   "^README.md: [0-9]+ bytes, more than 10240")
    list(LENGTH _left _before)
    list(FILTER _left EXCLUDE REGEX "${_planted}")
    list(LENGTH _left _after)
    math(EXPR _removed "${_before} - ${_after}")
    if(NOT _removed EQUAL 1)
      _doc_report(FATAL_ERROR "a planted fault was reported ${_removed} times (${_planted})"
                  "${_problems}")
    endif()
  endforeach()
  if(_left)
    _doc_report(FATAL_ERROR "reported besides the planted faults" "${_left}")
  endif()
  _doc_report(STATUS "planted faults reported" "${_problems}")
  return()
endif()

dirac_check_doc_links("${ROOT}" "${ROOT}" _problems)
if(_problems)
  _doc_report(FATAL_ERROR "the documentation's links or size are wrong" "${_problems}")
endif()
file(GLOB _docs "${ROOT}/docs/*.md")
list(LENGTH _docs _n)
file(SIZE "${ROOT}/README.md" _size)
message(STATUS "links hold in README.md (${_size} bytes) and ${_n} pages of docs/")
