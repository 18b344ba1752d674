# grammars.cmake — tree-sitter grammars for the emitters (syntax checks of generated code, splicing).
#
# Grammar sources are never kept in the repo: at configure time each pinned npm tarball is fetched
# with `npm pack` (downloads only, runs no package scripts) into a download cache shared by every
# build directory, its SHA-512 is checked against the pin below, and it is unpacked into this build
# directory. The static library `cimport_grammars` then exposes tree_sitter_<lang>() for each
# language and links the Debian tree-sitter runtime (0.20.7, ABI 13..14; the pins are the newest
# ABI-14 releases, see docs/reference/tree-sitter.md §1).
#
# Cache: -DCIMPORT_GRAMMAR_CACHE=DIR, else $CIMPORT_GRAMMAR_CACHE, else ~/.cache/cimport/grammars.
# A tarball already in the cache with the right hash is used without asking npm, so a second build
# directory (or an offline machine with a warm cache) configures without the network.

pkg_check_modules(TREE_SITTER REQUIRED IMPORTED_TARGET tree-sitter)

# name | npm spec | SHA-512 of the tarball (hex of the registry's `dist.integrity`) | sources inside package/ (comma-separated)
set(CIMPORT_GRAMMARS
  "typescript|tree-sitter-typescript@0.23.2|7b4e095142b14d3e77ff1dd4ab5cc82f8e43a182957c71f8099ab081984f839a9844e9799d08d5fbce6bb85cc5199c6ef9078555b4533c3467a8bf546d4e1578|typescript/src/parser.c,typescript/src/scanner.c"
  "python|tree-sitter-python@0.23.6|c8833dcf4a31288c53edb02d3ce860a1597a8135e59a5221b9eee58854f8a013c5fe585aec76b8750052f3602fea130c459a159c5248f0cea62fe4b05a82c3dc|src/parser.c,src/scanner.c"
  "go|tree-sitter-go@0.23.4|89068712ce3231afe1328fd9086a8b7c6eb51749a28a750b5357c587e199ade091b4aca514bb6f9fbf7ca1c0998cedabfee9e0359800635b3584f17203091cef|src/parser.c"
  "c_sharp|tree-sitter-c-sharp@0.23.1|f7367816571345659f45fe9fe0f806846f2c68f96ceaa38eb7be6d0df5fbba7f6f4192660118cfac00bac813425f64ff54a7028c80db82ad1ebc5681de21a143|src/parser.c,src/scanner.c"
  "java|tree-sitter-java@0.23.5|623bbba10d17c7b19c513d359948253cff9b61fbea8cd086771aa28139dec3d9cb1a8208e363cd54fddb1eb61e331b3088244cd32b9b5a6379aa4fb3b20d3330|src/parser.c"
  "yaml|@tree-sitter-grammars/tree-sitter-yaml@0.7.1|0329c1c242284024e08c3477ddb0d4a7d32aabe613728d22b379f985102932a1bda1fffa038790b1f0b5fee484787494c8c41261ac1c0166a6b1ec6756920fe1|src/parser.c,src/scanner.c"
)

if(DEFINED ENV{CIMPORT_GRAMMAR_CACHE})
  set(_cimport_grammar_cache_default "$ENV{CIMPORT_GRAMMAR_CACHE}")
elseif(DEFINED ENV{HOME})
  set(_cimport_grammar_cache_default "$ENV{HOME}/.cache/cimport/grammars")
else()
  set(_cimport_grammar_cache_default "${CMAKE_BINARY_DIR}/_grammar_cache")
endif()
set(CIMPORT_GRAMMAR_CACHE "${_cimport_grammar_cache_default}" CACHE PATH
    "Download cache for the pinned tree-sitter grammar tarballs (shared by build directories)")

find_program(CIMPORT_NPM npm)

# Makes sure ${tarball} exists in the cache with the pinned hash, fetching it with npm if needed.
function(cimport_grammar_fetch spec sha512 tarball)
  if(EXISTS "${tarball}")
    file(SHA512 "${tarball}" have)
    if(have STREQUAL sha512)
      return()
    endif()
    message(STATUS "grammars: cached ${tarball} has the wrong hash; fetching it again")
    file(REMOVE "${tarball}")
  endif()
  if(NOT CIMPORT_NPM)
    message(FATAL_ERROR
      "grammars: npm is needed to fetch ${spec} (tree-sitter grammar sources) and was not found. "
      "Install it (apt-get install npm), or put the tarball in ${CIMPORT_GRAMMAR_CACHE} "
      "(-DCIMPORT_GRAMMAR_CACHE=DIR) from a machine that has network access.")
  endif()
  # Each configure downloads into its own directory and renames into place, so build directories
  # configured at the same time never see a half-written tarball.
  string(RANDOM LENGTH 12 tag)
  set(tmp "${CIMPORT_GRAMMAR_CACHE}/.tmp-${tag}")
  file(MAKE_DIRECTORY "${tmp}")
  message(STATUS "grammars: npm pack ${spec}")
  execute_process(
    COMMAND "${CIMPORT_NPM}" pack "${spec}" --pack-destination "${tmp}" --loglevel=error
    WORKING_DIRECTORY "${tmp}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    TIMEOUT 300)
  file(GLOB got "${tmp}/*.tgz")
  if(NOT rc EQUAL 0 OR NOT got)
    file(REMOVE_RECURSE "${tmp}")
    message(FATAL_ERROR
      "grammars: could not fetch ${spec} with npm (exit ${rc}): ${err}\n"
      "The build needs the npm registry once to download the pinned tree-sitter grammars. "
      "Check the network or npm's registry setting, or fill ${CIMPORT_GRAMMAR_CACHE} "
      "(-DCIMPORT_GRAMMAR_CACHE=DIR) with the tarballs from a machine that has access.")
  endif()
  list(GET got 0 got)
  file(SHA512 "${got}" have)
  if(NOT have STREQUAL sha512)
    file(REMOVE_RECURSE "${tmp}")
    message(FATAL_ERROR
      "grammars: ${spec} downloaded with SHA-512 ${have}, but cmake/grammars.cmake pins ${sha512}. "
      "The tarball was not used. If the registry really changed the package, review it and update the pin.")
  endif()
  file(RENAME "${got}" "${tarball}")
  file(REMOVE_RECURSE "${tmp}")
endfunction()

set(_cimport_grammar_sources)
set(_cimport_grammar_root "${CMAKE_BINARY_DIR}/_grammars")
file(MAKE_DIRECTORY "${CIMPORT_GRAMMAR_CACHE}")
foreach(entry ${CIMPORT_GRAMMARS})
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 name)
  list(GET fields 1 spec)
  list(GET fields 2 sha512)
  list(GET fields 3 srcs)
  string(REPLACE "," ";" srcs "${srcs}")
  string(REGEX REPLACE "[@/]" "_" stem "${spec}")
  set(tarball "${CIMPORT_GRAMMAR_CACHE}/${stem}.tgz")
  set(dest "${_cimport_grammar_root}/${name}")
  set(stamp "${dest}/.cimport-sha512")

  # Unpack once per build directory; the stamp holds the hash of what was unpacked.
  set(unpacked "")
  if(EXISTS "${stamp}")
    file(READ "${stamp}" unpacked)
  endif()
  if(NOT unpacked STREQUAL sha512)
    cimport_grammar_fetch("${spec}" "${sha512}" "${tarball}")
    file(REMOVE_RECURSE "${dest}")
    file(MAKE_DIRECTORY "${dest}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E tar xzf "${tarball}"
                    WORKING_DIRECTORY "${dest}" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "grammars: could not unpack ${tarball}; delete it and configure again.")
    endif()
    file(WRITE "${stamp}" "${sha512}")
  endif()

  foreach(src ${srcs})
    set(path "${dest}/package/${src}")
    if(NOT EXISTS "${path}")
      message(FATAL_ERROR "grammars: ${spec} has no ${src}; the pin in cmake/grammars.cmake is wrong.")
    endif()
    get_filename_component(srcdir "${path}" DIRECTORY)
    # Each grammar is compiled against its own bundled tree_sitter/parser.h, never the system one.
    set_source_files_properties("${path}" PROPERTIES INCLUDE_DIRECTORIES "${srcdir}")
    list(APPEND _cimport_grammar_sources "${path}")
  endforeach()
endforeach()

add_library(cimport_grammars STATIC ${_cimport_grammar_sources})
# Foreign generated code: no project warnings or -Werror, no sanitizers (the yaml scanner does
# harmless misaligned stores that UBSan reports), and -O2 with no debug info even in Debug builds
# so C#'s 35 MB parser.c compiles in seconds. Setting the property replaces the directory options.
set_target_properties(cimport_grammars PROPERTIES
  COMPILE_OPTIONS "-O2;-g0;-w;-fno-sanitize=all"
  C_STANDARD 11
  POSITION_INDEPENDENT_CODE ON)
target_link_libraries(cimport_grammars PUBLIC PkgConfig::TREE_SITTER)
# The emitters' tree-sitter helper (emitters/ts_check.c) uses the grammars; cimport_emitters is
# defined after this file is included, hence the deferred call.
cmake_language(DEFER CALL target_link_libraries cimport_emitters PUBLIC cimport_grammars)
