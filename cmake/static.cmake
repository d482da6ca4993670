# SPDX-License-Identifier: MIT
# FTS_STATIC: one fully static ftscope (glibc linked in; docs/static.md).
#
# The libraries are found with pkg-config as usual, but each PkgConfig::X the
# rest of the build links is made here from its static link line (-l names,
# pkg-config --static), so `-static` on the ftscope program picks Debian's
# .a files, while test programs linking the same targets still find the .so
# files. libtracecmd and cJSON have no .a in Debian: their targets stay empty
# and the code uses its own reader and JSON tree (FTS_NO_TRACECMD,
# FTS_NO_CJSON).

function(fts_static_pkg prefix module)
  cmake_parse_arguments(P "REQUIRED" "" "" ${ARGN})
  if(P_REQUIRED)
    pkg_check_modules(${prefix} REQUIRED ${module})
  else()
    pkg_check_modules(${prefix} ${module})
  endif()
  if(NOT ${prefix}_FOUND)
    set(${prefix}_FOUND ${${prefix}_FOUND} PARENT_SCOPE)
    return()
  endif()
  add_library(PkgConfig::${prefix} INTERFACE IMPORTED GLOBAL)
  set(libs)
  foreach(l ${${prefix}_STATIC_LIBRARIES})
    # A Libs.private entry without an .a here (sqlite3.pc names zlib, which
    # libsqlite3.a does not use; arm64 has no zlib1g-dev) is left out: if
    # it was needed after all, the static link says so.
    if(NOT l MATCHES "^(m|dl|pthread|rt|c)$")
      find_library(FTS_STATIC_A_${l} NAMES lib${l}.a HINTS ${${prefix}_STATIC_LIBRARY_DIRS})
      if(NOT FTS_STATIC_A_${l})
        message(STATUS "ftscope: lib${l}.a not found, left out of the static link (${module})")
        continue()
      endif()
    endif()
    list(APPEND libs "-l${l}")
  endforeach()
  set_target_properties(PkgConfig::${prefix} PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${${prefix}_STATIC_INCLUDE_DIRS}"
    INTERFACE_COMPILE_OPTIONS "${${prefix}_STATIC_CFLAGS_OTHER}"
    INTERFACE_LINK_DIRECTORIES "${${prefix}_STATIC_LIBRARY_DIRS}"
    INTERFACE_LINK_LIBRARIES "${libs}")
  set(${prefix}_FOUND ON PARENT_SCOPE)
endfunction()

if(FTS_SANITIZE OR FTS_TSAN OR FTS_FUZZ)
  message(FATAL_ERROR "FTS_STATIC cannot be combined with sanitizers or fuzzing")
endif()
fts_static_pkg(SQLITE3 sqlite3 REQUIRED)
fts_static_pkg(TRACEFS libtracefs REQUIRED)
fts_static_pkg(TRACEEVENT libtraceevent REQUIRED)
add_library(PkgConfig::CJSON INTERFACE IMPORTED GLOBAL)
add_library(PkgConfig::TRACECMD INTERFACE IMPORTED GLOBAL)
if(FTS_TUI STREQUAL "ON")
  fts_static_pkg(NCURSESW ncursesw REQUIRED)
elseif(FTS_TUI STREQUAL "AUTO")
  fts_static_pkg(NCURSESW ncursesw)
endif()
