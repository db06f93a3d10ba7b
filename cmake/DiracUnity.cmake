# Unity builds by folder (DIRAC_UNITY_BUILD): each folder of a target's sources is one translation
# unit (CMake's UNITY_BUILD_MODE GROUP with the folder as UNITY_GROUP), so the headers a folder's
# files share (GiNaC, Eigen, SUNDIALS, Qt, VTK) are parsed once per folder.
#
# Why by folder and not CMake's default batches of 8 over the target's sorted source list: with
# batches, which files share a translation unit depends on the whole list, so a name repeated in
# two files' anonymous namespaces compiled fine until an unrelated file, added elsewhere, shifted
# the batches and put the two together. By folder, the two files of a clash are always in the
# same unit (the same folder) or never: a clash fails in the commit that makes it, in the folder
# it is in, and nothing outside the folder changes it. The build times, with and without unity,
# are in docs/ci.md ("Unity build by folder").
#
# A file that cannot share its folder's unit (a deliberate repeat of a name) gets
# SKIP_UNITY_BUILD_INCLUSION; files with their own COMPILE_OPTIONS are compiled alone by CMake.

# Puts every .cpp source of `target` (relative to `base`) in the unity group of its folder.
function(dirac_unity_by_folder target base)
  if(NOT DIRAC_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)
    return()
  endif()
  get_target_property(_sources ${target} SOURCES)
  get_target_property(_source_dir ${target} SOURCE_DIR)
  foreach(_src IN LISTS _sources)
    if(NOT _src MATCHES "\\.cpp$")
      continue()
    endif()
    get_filename_component(_abs "${_src}" ABSOLUTE BASE_DIR "${_source_dir}")
    file(RELATIVE_PATH _rel "${base}" "${_abs}")
    get_filename_component(_group "${_rel}" DIRECTORY)
    if(_group STREQUAL "")
      set(_group ".")
    endif()
    string(MAKE_C_IDENTIFIER "${_group}" _group)
    set_source_files_properties("${_abs}" TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP
                                "${_group}")
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()
