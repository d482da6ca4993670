# SPDX-License-Identifier: MIT
# Cross build for arm64 (Kunpeng) on a Debian x86_64 host with Debian's cross
# toolchain (gcc-aarch64-linux-gnu) and the arm64 multiarch -dev packages
# (dpkg --add-architecture arm64; scripts/deps.sh --all). scripts/cross-arm64.sh
# drives it; by hand:
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake
#
# Multiarch, not a sysroot: the arm64 libraries live in /usr/lib/aarch64-linux-gnu
# beside the host's and /usr/include is shared, so the root stays "/" and
# CMAKE_LIBRARY_ARCHITECTURE points find_library at the arm64 directory.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# FTS_ARM64_OVERLAY: a directory holding arm64 packages unpacked with dpkg-deb -x
# (usr/lib/aarch64-linux-gnu/...) because they cannot be installed beside the
# host's: Debian 12's libtracecmd1/libtracecmd-dev are not Multi-Arch: same
# (scripts/cross-arm64.sh fills it). Its .pc files are searched first.
set(FTS_ARM64_OVERLAY "" CACHE PATH "arm64 packages unpacked beside the multiarch ones (libtracecmd)")
# try_compile projects read this file again, and the environment it sets is
# the process's: without the overlay there, they would drop it for the rest.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES FTS_ARM64_OVERLAY)

# pkg-config must see the arm64 .pc files only (never the host's): LIBDIR
# replaces the default search path; /usr/share/pkgconfig holds arch-free ones.
set(fts_pc /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
if(FTS_ARM64_OVERLAY)
  set(fts_pc ${FTS_ARM64_OVERLAY}/usr/lib/aarch64-linux-gnu/pkgconfig:${fts_pc})
endif()
set(ENV{PKG_CONFIG_LIBDIR} ${fts_pc})
unset(ENV{PKG_CONFIG_PATH})

# ctest runs target binaries through qemu-user; binfmt_misc is not needed (nor
# registered). -L is the arm64 root qemu looks in first, for the ELF
# interpreter and every file the program opens, falling back to the real path:
# with "/" the interpreter is /lib/ld-linux-aarch64.so.1 of libc6:arm64, which
# loads the arm64 libraries from /usr/lib/aarch64-linux-gnu (through the
# host's ld.so.cache, which lists the multiarch directories). With an overlay,
# -L is the overlay: its libraries are found at their multiarch paths, and
# everything else (tracefs, the inputs and outputs) falls through to "/".
find_program(FTS_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(FTS_QEMU_AARCH64)
  if(FTS_ARM64_OVERLAY)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${FTS_QEMU_AARCH64} -L ${FTS_ARM64_OVERLAY})
  else()
    set(CMAKE_CROSSCOMPILING_EMULATOR ${FTS_QEMU_AARCH64} -L /)
  endif()
endif()
