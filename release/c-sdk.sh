#!/usr/bin/env bash
# The C and C++ SDK: builds the C ABI library in release and packs, under one folder named
# carcassonne-VERSION-TARGET, everything a C or C++ program needs to use it:
#
#   include/carcassonne.h                 the header (C and C++)
#   lib/                                  the static and shared libraries, as cargo names them
#   lib/pkgconfig/carcassonne.pc          for pkg-config (--static for the static library)
#   lib/cmake/carcassonne/                find_package(carcassonne): carcassonne::carcassonne
#                                         (shared) and carcassonne::carcassonne_static
#   share/carcassonne/examples/           the C and C++ examples
#   share/doc/carcassonne/                the licences, the changelog
#
# then writes it as carcassonne-VERSION-TARGET.tar.gz (a .zip for Windows targets too).
#
# Usage: bash release/c-sdk.sh [--target TRIPLE] [--out FOLDER]
#   --target  a Rust target triple (default: this machine's); x86_64-pc-windows-gnu needs
#             Debian's mingw-w64 (gcc-mingw-w64-x86-64)
#   --out     where the folder and archive go (default: ${CARGO_TARGET_DIR:-target}/sdk)
# Prints the archive's path on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."

host=$(rustc -vV | sed -n 's/^host: //p')
target=$host
out=""
while (($#)); do
    case $1 in
        --target) target=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) echo "unknown argument $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
cargo_target=${CARGO_TARGET_DIR:-target}
out=${out:-$cargo_target/sdk}

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' capi/Cargo.toml | head -n 1)
abi_major=$(sed -n 's/^#define CARC_ABI_VERSION_MAJOR \([0-9]*\)$/\1/p' include/carcassonne.h)
abi_minor=$(sed -n 's/^#define CARC_ABI_VERSION_MINOR \([0-9]*\)$/\1/p' include/carcassonne.h)
if [[ -z $version || -z $abi_major || -z $abi_minor ]]; then
    echo "cannot read the crate's version or the header's ABI version" >&2
    exit 1
fi

if [[ $target == "$host" ]]; then
    cargo build --release --locked -p carcassonne-capi
    built=$cargo_target/release
else
    rustup target add "$target" > /dev/null
    cargo build --release --locked -p carcassonne-capi --target "$target"
    built=$cargo_target/$target/release
fi

# The libraries as cargo names them. The shared one goes in bin/ on Windows, where programs
# find a DLL beside them, with its import library in lib/; in lib/ elsewhere.
static=libcarcassonne_capi.a
implib=""
case $target in
    *-windows-gnu) shared=carcassonne_capi.dll shared_dir=bin implib=libcarcassonne_capi.dll.a ;;
    *-apple-darwin) shared=libcarcassonne_capi.dylib shared_dir=lib ;;
    *) shared=libcarcassonne_capi.so shared_dir=lib ;;
esac
# What a static link needs besides (rustc says).
native=$(cargo rustc --release --locked -p carcassonne-capi --lib --crate-type staticlib \
    --target "$target" -- --print native-static-libs 2>&1 |
    sed -n 's/.*native-static-libs: //p' | tail -n 1)
if [[ -z $native ]]; then
    echo "rustc printed no native-static-libs for $target" >&2
    exit 1
fi
# rustc lists the C runtime itself (-lc, -lmsvcrt) and may repeat a library; compilers add
# the runtime anyway, so the lists below name each other library once.
private=$(tr ' ' '\n' <<< "$native" | grep -v -E '^(-lc|-lmsvcrt)?$' | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')

name=carcassonne-$version-$target
sdk=$out/$name
rm -rf "$sdk"
mkdir -p "$sdk/include" "$sdk/lib/pkgconfig" "$sdk/lib/cmake/carcassonne" \
    "$sdk/share/carcassonne/examples" "$sdk/share/doc/carcassonne"
cp include/carcassonne.h "$sdk/include/"
cp "$built/$static" "$sdk/lib/"
mkdir -p "$sdk/$shared_dir"
cp "$built/$shared" "$sdk/$shared_dir/"
[[ -z $implib ]] || cp "$built/$implib" "$sdk/lib/"
cp capi/examples/random_game.c capi/examples/random_game.cpp capi/examples/CMakeLists.txt \
    "$sdk/share/carcassonne/examples/"
cp LICENSE-MIT LICENSE-APACHE CHANGELOG.md "$sdk/share/doc/carcassonne/"

# pkg-config: the prefix is found from the file's own place, so the folder can be unpacked
# anywhere (pkgconf and pkg-config both define pcfiledir).
cat > "$sdk/lib/pkgconfig/carcassonne.pc" << EOF
prefix=\${pcfiledir}/../..
includedir=\${prefix}/include
libdir=\${prefix}/lib

Name: carcassonne
Description: The carcassonne rules engine's C ABI (header carcassonne.h)
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -lcarcassonne_capi
Libs.private: $private
EOF

# CMake: two imported targets; the folder is found from the config file's own place.
shared_location="\${_carcassonne_prefix}/$shared_dir/$shared"
implib_line=""
[[ -z $implib ]] || implib_line="IMPORTED_IMPLIB \"\${_carcassonne_prefix}/lib/$implib\""
cmake_libs=$(tr ' ' ';' <<< "$private")
cat > "$sdk/lib/cmake/carcassonne/carcassonneConfig.cmake" << EOF
# find_package(carcassonne) for the carcassonne rules engine's C ABI, version $version
# (ABI $abi_major.$abi_minor). Targets:
#   carcassonne::carcassonne         the shared library
#   carcassonne::carcassonne_static  the static library, with the system libraries it needs
get_filename_component(_carcassonne_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET carcassonne::carcassonne)
  add_library(carcassonne::carcassonne SHARED IMPORTED)
  set_target_properties(carcassonne::carcassonne PROPERTIES
    IMPORTED_LOCATION "$shared_location"
    $implib_line
    INTERFACE_INCLUDE_DIRECTORIES "\${_carcassonne_prefix}/include")
endif()

if(NOT TARGET carcassonne::carcassonne_static)
  add_library(carcassonne::carcassonne_static STATIC IMPORTED)
  set_target_properties(carcassonne::carcassonne_static PROPERTIES
    IMPORTED_LOCATION "\${_carcassonne_prefix}/lib/$static"
    INTERFACE_INCLUDE_DIRECTORIES "\${_carcassonne_prefix}/include"
    INTERFACE_LINK_LIBRARIES "$cmake_libs")
endif()

set(carcassonne_VERSION "$version")
set(carcassonne_ABI_VERSION "$abi_major.$abi_minor")
unset(_carcassonne_prefix)
EOF
version_major=${version%%.*}
version_rest=${version#*.}
version_minor=${version_rest%%.*}
cat > "$sdk/lib/cmake/carcassonne/carcassonneConfigVersion.cmake" << EOF
# The package's version is the crates' ($version). A request at or below it is compatible
# when its major version is the same (for 0.x versions, its minor version too), as semantic
# versioning has it.
set(PACKAGE_VERSION "$version")
set(PACKAGE_VERSION_COMPATIBLE FALSE)
if(NOT PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  if("\${PACKAGE_FIND_VERSION_MAJOR}" STREQUAL "$version_major")
    if(NOT "$version_major" STREQUAL "0" OR "\${PACKAGE_FIND_VERSION_MINOR}" STREQUAL "$version_minor")
      set(PACKAGE_VERSION_COMPATIBLE TRUE)
    endif()
  endif()
endif()
if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
  set(PACKAGE_VERSION_EXACT TRUE)
endif()
EOF

archive=$out/$name.tar.gz
tar -czf "$archive" -C "$out" "$name"
if [[ $target == *-windows-* ]] && command -v zip > /dev/null; then
    (cd "$out" && rm -f "$name.zip" && zip -qr "$name.zip" "$name")
fi
echo "$archive"
