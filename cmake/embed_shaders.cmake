# Writes OUTPUT, a C file holding every file in SOURCES as a NUL-terminated
# char array named sw_shader_<file name with dots as underscores>, so that
# shaders live in the binary and nothing is looked up at run time.
# Run as: cmake -DOUTPUT=... -DSOURCES="a;b" -P embed_shaders.cmake
#
# A .h file among SOURCES is a shader interface header (src/gpu/
# skin_interface.h, src/render/render_interface.h): C includes it and the
# GLSL gets it embedded unchanged, so it must mean the same in both
# languages. Only comments, blank lines, the include guard and
# "#define SW_NAME <integer>" lines pass; anything else stops the build.

# Fails unless every line of `file` outside comments is one of the forms above.
function(sw_check_interface_header file)
  file(READ ${file} text)
  # Comments out, line breaks kept so that the line numbers stay right.
  set(stripped "")
  while(text MATCHES "^([^/]*)/(.*)$")
    string(APPEND stripped "${CMAKE_MATCH_1}")
    set(rest "${CMAKE_MATCH_2}")
    if(rest MATCHES "^\\*")
      string(FIND "${rest}" "*/" end)
      if(end LESS 0)
        message(FATAL_ERROR "${file}: a /* comment is not closed")
      endif()
      string(SUBSTRING "${rest}" 0 ${end} comment)
      string(REGEX REPLACE "[^\n]" "" breaks "${comment}")
      string(APPEND stripped " ${breaks}")
      math(EXPR end "${end} + 2")
      string(SUBSTRING "${rest}" ${end} -1 text)
    elseif(rest MATCHES "^/")
      string(FIND "${rest}" "\n" end)
      if(end LESS 0)
        set(text "")
      else()
        string(SUBSTRING "${rest}" ${end} -1 text)
      endif()
    else()
      string(APPEND stripped "/")
      set(text "${rest}")
    endif()
  endwhile()
  string(APPEND stripped "${text}")
  if(stripped MATCHES "[;\\\\]")
    message(FATAL_ERROR "${file}: ';' or '\\' outside a comment: the header must read the same as C and as GLSL")
  endif()
  string(REPLACE "\n" ";" lines "${stripped}")
  set(number 0)
  set(guard "")
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    string(STRIP "${line}" line)
    if(line STREQUAL "" OR line STREQUAL "#endif")
      continue()
    elseif(line MATCHES "^#ifndef (SW_[A-Z0-9_]+_H)$" AND guard STREQUAL "")
      set(guard "${CMAKE_MATCH_1}")
    elseif(line STREQUAL "#define ${guard}" AND NOT guard STREQUAL "")
    elseif(line MATCHES "^#define SW_[A-Z0-9_]+[ \t]+(0|[1-9][0-9]*|0x[0-9A-Fa-f]+)$")
    else()
      message(FATAL_ERROR "${file}:${number}: '${line}' is not '#define SW_NAME <integer>': "
                          "this header is read as C and as GLSL and may hold nothing else "
                          "(no casts, suffixes or expressions)")
    endif()
  endforeach()
endfunction()

set(text "/* Generated at build time from shaders/ and the interface headers; edit those, not this. */\n")
foreach(src ${SOURCES})
  get_filename_component(name ${src} NAME)
  if(name MATCHES "\\.h$")
    sw_check_interface_header(${src})
  endif()
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
