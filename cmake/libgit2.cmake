# libgit2.cmake — libgit2 for unified diffs of spliced programs (splice/review.c and lsp/lsp_text.c,
# git_patch_from_buffers). Debian package libgit2-dev.
pkg_check_modules(GIT2 REQUIRED IMPORTED_TARGET libgit2)
# cimport_emitters is defined after the cmake/ parts are included (top-level CMakeLists.txt).
cmake_language(DEFER CALL target_link_libraries cimport_emitters PUBLIC PkgConfig::GIT2)
