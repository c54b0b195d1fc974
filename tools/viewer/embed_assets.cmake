# Writes a C++ source that embeds the viewer's web files, so the binary serves the page with no
# files beside it. Run at build time:
#   cmake -DOUTPUT=... -DWEB_DIR=... [-DTHREE_DIR=...] -P embed_assets.cmake
# With THREE_DIR (an installed `three` package, tools/viewer/static/node_modules/three), three.js
# and its orbit controls are embedded too, with the page's 3D view (view3d.js): the page's import
# map finds them at /three.module.js, /three.core.js and /OrbitControls.js. Each file is one
# string literal (a brace list of megabytes of characters compiles far slower).
# Each file is embedded twice: as it is, and gzipped here, once, so that the server answers a
# client that accepts gzip with the stored copy and never compresses on a request (compressing
# three.js on each request took seconds). The gzip header's time is zeroed ("none" in RFC 1952),
# so the same files give the same source.

# The C++ string literal ("\\x.." escapes) of the bytes in `hex`, and their count.
function(hex_to_literal hex literal_var size_var)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" literal "${hex}")
  set(${literal_var} "${literal}" PARENT_SCOPE)
  set(${size_var} "${size}" PARENT_SCOPE)
endfunction()

set(source "// Generated from tools/viewer/web by embed_assets.cmake; do not edit.\n")
string(APPEND source "#include \"viewer/viewer_server.hpp\"\n\n")
string(APPEND source "#if defined(__GNUC__)\n#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n#endif\n\n")
string(APPEND source "namespace wayfinder::viewer {\nnamespace {\n")
set(table "")
set(index 0)
# url|file pairs.
set(files)
foreach(file index.html viewer.js viewer.css replay.js obstacle_panel.js crowd_panel.js)
  if(file STREQUAL "index.html")
    list(APPEND files "/|${WEB_DIR}/${file}")
  else()
    list(APPEND files "/${file}|${WEB_DIR}/${file}")
  endif()
endforeach()
if(THREE_DIR)
  list(APPEND files "/view3d.js|${WEB_DIR}/view3d.js" "/voxel_geometry.js|${WEB_DIR}/voxel_geometry.js"
       "/world_files.js|${WEB_DIR}/world_files.js"
       "/three.module.js|${THREE_DIR}/build/three.module.js" "/three.core.js|${THREE_DIR}/build/three.core.js"
       "/OrbitControls.js|${THREE_DIR}/examples/jsm/controls/OrbitControls.js")
endif()
foreach(entry IN LISTS files)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 url)
  list(GET parts 1 path)
  if(path MATCHES "\\.html$")
    set(type "text/html")
  elseif(path MATCHES "\\.js$")
    set(type "text/javascript")
  else()
    set(type "text/css")
  endif()
  file(READ "${path}" hex HEX)
  hex_to_literal("${hex}" bytes size)
  string(APPEND source "constexpr char asset_${index}[] = \"${bytes}\";\n")
  set(gzipped "${OUTPUT}.asset.gz")
  file(REMOVE "${gzipped}")
  file(ARCHIVE_CREATE OUTPUT "${gzipped}" PATHS "${path}" FORMAT raw COMPRESSION GZip COMPRESSION_LEVEL 9)
  file(READ "${gzipped}" gzip_hex HEX)
  file(REMOVE "${gzipped}")
  # Bytes 4 to 7 of the gzip header are its MTIME.
  string(SUBSTRING "${gzip_hex}" 0 8 gzip_start)
  string(SUBSTRING "${gzip_hex}" 16 -1 gzip_rest)
  hex_to_literal("${gzip_start}00000000${gzip_rest}" gzip_bytes gzip_size)
  string(APPEND source "constexpr char asset_${index}_gzip[] = \"${gzip_bytes}\";\n")
  string(APPEND table "    {\"${url}\", \"${type}; charset=utf-8\", std::string_view(asset_${index}, ${size}),\n"
                      "     std::string_view(asset_${index}_gzip, ${gzip_size})},\n")
  math(EXPR index "${index} + 1")
endforeach()
string(APPEND source "constexpr ViewerAsset assets[] = {\n${table}};\n}  // namespace\n\n")
string(APPEND source "const ViewerAsset* find_viewer_asset(std::string_view path) {\n")
string(APPEND source "  if (path == \"/index.html\") path = \"/\";\n")
string(APPEND source "  for (const ViewerAsset& asset : assets)\n    if (asset.path == path) return &asset;\n  return nullptr;\n}\n\n")
string(APPEND source "}  // namespace wayfinder::viewer\n")
file(WRITE "${OUTPUT}.tmp" "${source}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
