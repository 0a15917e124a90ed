# Installation: headers, the static libraries, the `sinew` command, the
# pkg-config files (sinew.pc, sinew-import.pc, sinew-render.pc, sinew-demo.pc)
# and the CMake package (find_package(sinew) -> sinew::sinew, sinew::import,
# sinew::render, sinew::demo).
# Included at the end of the top-level CMakeLists.txt, after every target.
#
#   cmake --install build/release --prefix /opt/sinew      (or make install PREFIX=...)
#
# Every installed path is relative to the prefix chosen at install time:
# the CMake package uses ${_IMPORT_PREFIX}, the .pc files ${pcfiledir}.
# The shaders are embedded in the libraries, so there are no data files.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SW_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/sinew)

# The in-tree target names stay; consumers see sinew::<name>. The same
# names work in-tree (ALIAS), so a project that adds sinew with
# add_subdirectory links the same targets as one that installs it.
set(SW_EXPORTED_TARGETS sinew_lib sinew_import sinew_render)
set_target_properties(sinew_lib PROPERTIES EXPORT_NAME sinew)
set_target_properties(sinew_import PROPERTIES EXPORT_NAME import)
set_target_properties(sinew_render PROPERTIES EXPORT_NAME render)
add_library(sinew::sinew ALIAS sinew_lib)
add_library(sinew::import ALIAS sinew_import)
add_library(sinew::render ALIAS sinew_render)
if(TARGET sinew_demo)
  list(APPEND SW_EXPORTED_TARGETS sinew_demo)
  set_target_properties(sinew_demo PROPERTIES EXPORT_NAME demo)
  add_library(sinew::demo ALIAS sinew_demo)
endif()

# A sanitized build's static libraries need the sanitizer runtimes wherever
# they are linked: the package says so (link options of sinew::sinew, Libs
# of sinew.pc), so consumers need no flags of their own.
set(SW_PC_EXTRA_LIBS "")
if(SW_SANITIZE)
  set_property(TARGET sinew_lib APPEND PROPERTY INTERFACE_LINK_OPTIONS
               "$<INSTALL_INTERFACE:-fsanitize=address,undefined>")
  set(SW_PC_EXTRA_LIBS " -fsanitize=address,undefined")
endif()
# Built with Assimp (SW_ASSIMP), the static import library links it:
# sinew-import.pc requires it and sinewConfig.cmake finds it, as it finds cJSON.
set(SW_PC_ASSIMP "")
set(SW_CONFIG_ASSIMP "")
if(SW_ASSIMP)
  set(SW_PC_ASSIMP " assimp")
  set(SW_CONFIG_ASSIMP "ASSIMP;assimp;import")
endif()
set(SW_PC_EXTRA_CFLAGS "")
if(SW_NO_SIMD)
  set(SW_PC_EXTRA_CFLAGS " -DSW_NO_SIMD=1") # what sinew::sinew's compile definitions carry
endif()

# Headers: the source tree's include/ while building (CMakeLists.txt), the
# installed include/ (relative to the prefix) for consumers.
target_include_directories(sinew_lib PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(TARGETS ${SW_EXPORTED_TARGETS}
        EXPORT sinewTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/sinew
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
if(TARGET sinew)
  install(TARGETS sinew RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# ---- CMake package ---------------------------------------------------------
install(EXPORT sinewTargets
        NAMESPACE sinew::
        FILE sinewTargets.cmake
        DESTINATION ${SW_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/sinewConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/install/sinewConfig.cmake
                              INSTALL_DESTINATION ${SW_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API, so only the same minor matches.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/install/sinewConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/install/sinewConfig.cmake
              ${PROJECT_BINARY_DIR}/install/sinewConfigVersion.cmake
        DESTINATION ${SW_INSTALL_CMAKEDIR})

# ---- pkg-config ------------------------------------------------------------
# prefix is found from the .pc file's own place (${pcfiledir}), so the tree
# can be installed under any --prefix and moved afterwards.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  message(FATAL_ERROR "sinew: CMAKE_INSTALL_LIBDIR must be relative to the prefix (got ${CMAKE_INSTALL_LIBDIR})")
endif()
file(RELATIVE_PATH SW_PC_TO_PREFIX /sw-prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /sw-prefix)
string(REGEX REPLACE "/$" "" SW_PC_TO_PREFIX "${SW_PC_TO_PREFIX}")
set(SW_PC_FILES sinew sinew-import sinew-render)
if(TARGET sinew_demo)
  list(APPEND SW_PC_FILES sinew-demo)
endif()
foreach(pc ${SW_PC_FILES})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/install/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/install/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
