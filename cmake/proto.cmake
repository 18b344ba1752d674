# proto.cmake — generated protobuf-c code for talking to Pulumi provider plugins over gRPC.
#
# The project's own .proto files (importer/proto/*.proto: only the pulumirpc messages cimport uses,
# with Pulumi's field numbers) and the well-known types they need (google/protobuf/struct.proto and
# empty.proto from libprotobuf-dev's /usr/include) are compiled with protoc-c at build time into
# ${CMAKE_BINARY_DIR}/proto; nothing generated is kept in the repo. The static library
# `cimport_proto` holds that code and carries libprotobuf-c and libnghttp2 (the HTTP/2 transport of
# importer/grpc.c) to everything that links it; cimport_importer links it PUBLIC.

pkg_check_modules(PROTOBUF_C REQUIRED IMPORTED_TARGET libprotobuf-c)
pkg_check_modules(NGHTTP2 REQUIRED IMPORTED_TARGET libnghttp2)
find_program(CIMPORT_PROTOC_C NAMES protoc-c protoc-gen-c)
if(NOT CIMPORT_PROTOC_C)
  message(FATAL_ERROR "proto: protoc-c was not found; install the Debian package protobuf-c-compiler.")
endif()

# The well-known types ship with libprotobuf-dev (protoc's include directory).
find_path(CIMPORT_PROTO_WKT_DIR google/protobuf/struct.proto PATHS /usr/include /usr/local/include)
if(NOT CIMPORT_PROTO_WKT_DIR)
  message(FATAL_ERROR "proto: google/protobuf/struct.proto was not found; install the Debian package libprotobuf-dev.")
endif()

set(_cimport_proto_src_dir ${CMAKE_SOURCE_DIR}/importer/proto)
set(_cimport_proto_out_dir ${CMAKE_BINARY_DIR}/proto)
file(GLOB _cimport_protos CONFIGURE_DEPENDS ${_cimport_proto_src_dir}/*.proto)
list(SORT _cimport_protos)

set(_cimport_proto_inputs)
set(_cimport_proto_outputs)
set(_cimport_proto_depends)
foreach(wkt google/protobuf/struct google/protobuf/empty)
  list(APPEND _cimport_proto_inputs ${wkt}.proto)
  list(APPEND _cimport_proto_depends ${CIMPORT_PROTO_WKT_DIR}/${wkt}.proto)
  list(APPEND _cimport_proto_outputs ${_cimport_proto_out_dir}/${wkt}.pb-c.c ${_cimport_proto_out_dir}/${wkt}.pb-c.h)
endforeach()
foreach(proto ${_cimport_protos})
  get_filename_component(_name ${proto} NAME_WE)
  list(APPEND _cimport_proto_inputs ${_name}.proto)
  list(APPEND _cimport_proto_depends ${proto})
  list(APPEND _cimport_proto_outputs ${_cimport_proto_out_dir}/${_name}.pb-c.c ${_cimport_proto_out_dir}/${_name}.pb-c.h)
endforeach()

add_custom_command(
  OUTPUT ${_cimport_proto_outputs}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_cimport_proto_out_dir}
  COMMAND ${CIMPORT_PROTOC_C} -I${_cimport_proto_src_dir} -I${CIMPORT_PROTO_WKT_DIR}
          --c_out=${_cimport_proto_out_dir} ${_cimport_proto_inputs}
  DEPENDS ${_cimport_proto_depends}
  COMMENT "protoc-c: generating C for ${_cimport_proto_inputs}"
  VERBATIM)

set(_cimport_proto_c ${_cimport_proto_outputs})
list(FILTER _cimport_proto_c INCLUDE REGEX "\\.c$")
add_library(cimport_proto STATIC ${_cimport_proto_c})
# Generated code is not ours to keep warning-free under the project's extra warnings.
target_compile_options(cimport_proto PRIVATE -Wno-shadow -Wno-unused-parameter)
target_include_directories(cimport_proto PUBLIC ${_cimport_proto_out_dir})
target_link_libraries(cimport_proto PUBLIC PkgConfig::PROTOBUF_C PkgConfig::NGHTTP2)

# cimport_importer is defined after the cmake/ parts are included (top-level CMakeLists.txt).
cmake_language(DEFER CALL target_link_libraries cimport_importer PUBLIC cimport_proto)
