# dirac_ui_worker: the simulation controller and its worker thread (simulation_controller.cpp on
# the GUI thread's side, controller_worker.cpp on the worker's), the boundary values it edits, the
# mailbox to the GUI thread (the symbolic lock is core's, dirac/symbolic_lock.hpp); Qt Core only.
# dirac_ui links it, and so does the worker test (tests/worker): the Release build compiles these
# files once, and the ThreadSanitizer build (scripts/sanitize.sh tsan, no GUI) builds them without
# Qt Widgets or VTK. Included from ui/CMakeLists.txt and tests/worker/CMakeLists.txt; the first
# include defines it.
if(NOT TARGET dirac_ui_worker)
  find_package(Qt6 6.2 REQUIRED COMPONENTS Core)
  set(_dirac_run ${CMAKE_CURRENT_LIST_DIR})
  add_library(dirac_ui_worker STATIC
    ${_dirac_run}/simulation_controller.cpp ${_dirac_run}/controller_worker.cpp
    ${_dirac_run}/simulation_controller.hpp
    ${_dirac_run}/simulation_snapshot.hpp ${_dirac_run}/boundary_values.cpp
    ${_dirac_run}/boundary_values.hpp ${_dirac_run}/worker_mailbox.cpp
    ${_dirac_run}/worker_mailbox.hpp)
  set_target_properties(dirac_ui_worker PROPERTIES AUTOMOC ON)
  include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/DiracUnity.cmake)
  dirac_unity_by_folder(dirac_ui_worker ${_dirac_run}/..)
  target_include_directories(dirac_ui_worker PUBLIC ${_dirac_run}/..)
  target_compile_options(dirac_ui_worker PRIVATE -Wall -Wextra)
  target_link_libraries(dirac_ui_worker PUBLIC dirac_core Qt6::Core)
endif()
