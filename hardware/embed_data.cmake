# Writes OUT, a C++ source holding the knowledge base's JSON files as raw string literals, so the
# executable carries its own copy (run at build time; reruns when a file changes).
#   cmake -DOUT=builtin_data.cpp -DDATA_DIR=hardware/data -P embed_data.cmake
set(text "// Generated from hardware/data/ by hardware/embed_data.cmake: edit the JSON, not this.\n")
string(APPEND text "namespace p2p::hw::builtin {\n")
foreach(pair "models;gpu_models.json" "links;links.json" "figures;reference_figures.json")
  list(GET pair 0 name)
  list(GET pair 1 file)
  file(READ "${DATA_DIR}/${file}" content)
  if(content MATCHES "\\)p2pkb\"")
    message(FATAL_ERROR "${file} holds the raw string's closing delimiter")
  endif()
  string(APPEND text "extern const char* const k_${name};\n")
  string(APPEND text "const char* const k_${name} = R\"p2pkb(${content})p2pkb\";\n")
endforeach()
string(APPEND text "}  // namespace p2p::hw::builtin\n")
file(WRITE "${OUT}.tmp" "${text}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
