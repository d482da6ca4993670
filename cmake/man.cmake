# SPDX-License-Identifier: MIT
# Manual pages and bash completion.
#
# docs/man/<page>.1.scd -> <build>/man/<page>.1 with scdoc (Debian's scdoc
# package), built with the default target and installed to
# ${CMAKE_INSTALL_MANDIR}/man1, uncompressed (dh_installman compresses them
# for the package). Without scdoc the pages are skipped and configure says so:
# a user's build must not fail for want of a documentation tool.
#
# completion/ftscope.bash is installed as
# ${CMAKE_INSTALL_DATADIR}/bash-completion/completions/ftscope, relative to the
# prefix: with the prefix /usr that is exactly what
# `pkg-config --variable=completionsdir bash-completion` answers on Debian,
# and under /usr/local bash-completion finds it through XDG_DATA_DIRS. The
# packaging (debian/) relies on both paths: keep them.
find_program(FTS_SCDOC scdoc)
file(GLOB FTS_MAN_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/man/*.1.scd)
if(FTS_SCDOC)
  set(fts_man_pages)
  foreach(src ${FTS_MAN_SOURCES})
    get_filename_component(page ${src} NAME_WLE)
    set(out ${CMAKE_BINARY_DIR}/man/${page})
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
      COMMAND ${FTS_SCDOC} < ${src} > ${out}.tmp
      COMMAND ${CMAKE_COMMAND} -E rename ${out}.tmp ${out}
      DEPENDS ${src}
      COMMENT "scdoc ${page}"
      VERBATIM)
    list(APPEND fts_man_pages ${out})
  endforeach()
  add_custom_target(man ALL DEPENDS ${fts_man_pages})
  install(FILES ${fts_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  message(STATUS "ftscope: man pages yes (${FTS_SCDOC})")
else()
  message(STATUS "ftscope: man pages no (scdoc not found: apt-get install scdoc)")
endif()

set(fts_completions ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  # the system's own answer, when it has one under the prefix
  pkg_get_variable(fts_bc_dir bash-completion completionsdir)
  if(fts_bc_dir MATCHES "^/usr/(.+)$")
    set(fts_completions ${CMAKE_MATCH_1})
  endif()
endif()
set(FTS_BASH_COMPLETION_DIR ${fts_completions} CACHE STRING
  "Where the bash completion goes (relative: under the prefix)")
message(STATUS "ftscope: bash completion -> <prefix>/${FTS_BASH_COMPLETION_DIR}/ftscope")
install(FILES ${CMAKE_SOURCE_DIR}/completion/ftscope.bash
  DESTINATION ${FTS_BASH_COMPLETION_DIR} RENAME ftscope)
