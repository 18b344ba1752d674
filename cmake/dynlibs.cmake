# dynlibs.cmake — libcurl (plugin downloads, Pulumi Cloud: importer/plugin.c, stacks/cloud.c), libpq (the
# PostgreSQL backend: stacks/backend.c) and libgit2 (unified diffs of spliced programs: splice/review.c,
# lsp/lsp_text.c). Debian packages libcurl4-openssl-dev, libpq-dev, libgit2-dev. They are not linked:
# base/dynlib_*.c load each by the soname read here when a run first calls it (base/dynlib.h), so a
# run that uses none of them does not load the thirty libraries they pull in.
pkg_check_modules(LIBCURL REQUIRED IMPORTED_TARGET libcurl)
pkg_check_modules(LIBPQ REQUIRED IMPORTED_TARGET libpq)
pkg_check_modules(GIT2 REQUIRED IMPORTED_TARGET libgit2)

# The soname (SONAME) of the shared library pkg-config found for prefix, read with objdump.
function(cimport_soname prefix out)
  set(found "")
  foreach(lib ${${prefix}_LINK_LIBRARIES})
    if(lib MATCHES "\\.so")
      execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${lib} OUTPUT_VARIABLE dump ERROR_QUIET)
      if(dump MATCHES "SONAME +([^ \n]+)")
        set(found ${CMAKE_MATCH_1})
        break()
      endif()
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "cannot read the soname of ${prefix} (${${prefix}_LINK_LIBRARIES}) with ${CMAKE_OBJDUMP}")
  endif()
  set(${out} ${found} PARENT_SCOPE)
endfunction()
cimport_soname(LIBCURL CIMPORT_SONAME_CURL)
cimport_soname(LIBPQ CIMPORT_SONAME_PQ)
cimport_soname(GIT2 CIMPORT_SONAME_GIT2)
message(STATUS "loaded when used: ${CIMPORT_SONAME_CURL}, ${CIMPORT_SONAME_PQ}, ${CIMPORT_SONAME_GIT2}")

# The targets are defined after the cmake/ parts are included (top-level CMakeLists.txt).
function(cimport_dynlibs_wire)
  target_include_directories(cimport_base PRIVATE ${LIBCURL_INCLUDE_DIRS} ${LIBPQ_INCLUDE_DIRS} ${GIT2_INCLUDE_DIRS})
  target_compile_definitions(cimport_base PRIVATE CIMPORT_SONAME_CURL="${CIMPORT_SONAME_CURL}"
                             CIMPORT_SONAME_PQ="${CIMPORT_SONAME_PQ}" CIMPORT_SONAME_GIT2="${CIMPORT_SONAME_GIT2}")
  target_link_libraries(cimport_base PUBLIC ${CMAKE_DL_LIBS} Threads::Threads)
  target_include_directories(cimport_importer PRIVATE ${LIBCURL_INCLUDE_DIRS})
  target_include_directories(cimport_stacks PRIVATE ${LIBCURL_INCLUDE_DIRS} ${LIBPQ_INCLUDE_DIRS})
  target_include_directories(cimport_emitters PUBLIC ${GIT2_INCLUDE_DIRS})
endfunction()
cmake_language(DEFER CALL cimport_dynlibs_wire)
