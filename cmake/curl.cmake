# curl.cmake — libcurl for downloading provider plugins (importer/plugin.c: pluginDownloadUrl and
# Pulumi's release server). Only plain HTTP(S) GETs of release archives go through it; the gRPC
# transport is nghttp2 (see cmake/proto.cmake and docs/ARCHITECTURE.md §4).
pkg_check_modules(CURL REQUIRED IMPORTED_TARGET libcurl)
# cimport_importer is defined after the cmake/ parts are included (top-level CMakeLists.txt).
cmake_language(DEFER CALL target_link_libraries cimport_importer PUBLIC PkgConfig::CURL)
