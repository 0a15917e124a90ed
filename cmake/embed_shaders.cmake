# Writes OUTPUT, a C file holding every file in SOURCES as a NUL-terminated
# char array named sw_shader_<file name with dots as underscores>, so that
# shaders live in the binary and nothing is looked up at run time.
# Run as: cmake -DOUTPUT=... -DSOURCES="a;b" -P embed_shaders.cmake
set(text "/* Generated from shaders/ at build time; edit the .glsl files, not this. */\n")
foreach(src ${SOURCES})
  get_filename_component(name ${src} NAME)
  string(REPLACE "." "_" symbol "sw_shader_${name}")
  file(READ ${src} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
  string(APPEND text "extern const char ${symbol}[];\nconst char ${symbol}[] = {\n${bytes}0x00};\n")
endforeach()
# Only touch the file when it changes, so dependants are not rebuilt needlessly.
set(old "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
