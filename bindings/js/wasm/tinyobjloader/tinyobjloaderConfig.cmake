# Stands in for tinyobjloader's CMake package in the WebAssembly build: Debian's header
# (libtinyobjloader-dev), which holds the implementation too, compiled with emscripten in
# double precision as the native build's tinyobjloader::tinyobjloader_double is.
if(TARGET tinyobjloader::tinyobjloader_double)
  return()
endif()
find_file(WAYFINDER_TINYOBJ_HEADER tiny_obj_loader.h PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
# The header is copied into a folder of its own: /usr/include itself must not reach the
# compiler, whose C library headers are emscripten's.
set(tinyobj_include ${CMAKE_BINARY_DIR}/tinyobjloader_include)
configure_file(${WAYFINDER_TINYOBJ_HEADER} ${tinyobj_include}/tiny_obj_loader.h COPYONLY)
add_library(tinyobjloader_wasm STATIC ${CMAKE_CURRENT_LIST_DIR}/tiny_obj_loader.cpp)
target_include_directories(tinyobjloader_wasm SYSTEM PUBLIC ${tinyobj_include})
target_compile_definitions(tinyobjloader_wasm PUBLIC TINYOBJLOADER_USE_DOUBLE)
add_library(tinyobjloader::tinyobjloader_double ALIAS tinyobjloader_wasm)
set(tinyobjloader_FOUND TRUE)
