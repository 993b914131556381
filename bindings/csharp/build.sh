#!/usr/bin/env bash
# build.sh: builds the native library (or takes a folder holding it), compiles the C# binding, its sample, API tests and layout check with Mono's mcs, and runs them.
#
# Usage: bindings/csharp/build.sh [LIB_DIR]
#   LIB_DIR   a folder with libcarcassonne_capi.so; without it, `cargo build --release -p
#             carcassonne-capi` builds one into target/release.
#   SEED=n    the seed of the sample's game (default 1).
# Needs mcs, mono (Debian: mono-mcs mono-runtime) and gcc. Exits non-zero on any failure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

for tool in mcs mono gcc; do
    command -v "$tool" >/dev/null || {
        echo "build.sh: $tool is missing (Debian: apt-get install mono-mcs mono-runtime gcc)" >&2
        exit 1
    }
done

if [ $# -ge 1 ]; then
    lib_dir=$(cd "$1" && pwd)
else
    (cd "$root" && cargo build --release -p carcassonne-capi)
    lib_dir="${CARGO_TARGET_DIR:-$root/target}/release"
    case "$lib_dir" in /*) ;; *) lib_dir="$root/$lib_dir" ;; esac
fi
[ -f "$lib_dir/libcarcassonne_capi.so" ] || {
    echo "build.sh: no libcarcassonne_capi.so in $lib_dir" >&2
    exit 1
}

out="$lib_dir/capi-csharp"
mkdir -p "$out"
# -warn:4 with -doc makes a public member without a /// comment a warning, and so an error.
mcs_flags=(-nologo -warn:4 -warnaserror)

echo "== compiling with mcs into $out"
mcs "${mcs_flags[@]}" -target:library -doc:"$out/Carcassonne.xml" -out:"$out/Carcassonne.dll" "$here/Carcassonne.cs"
# The sample and the tests see only the public API, as a Unity script would; the layout
# check reads the internal structs, so it is compiled with the binding's source.
mcs "${mcs_flags[@]}" -r:"$out/Carcassonne.dll" -out:"$out/Sample.exe" "$here/Sample/Program.cs"
mcs "${mcs_flags[@]}" -r:"$out/Carcassonne.dll" -r:System.Core.dll -out:"$out/ApiTests.exe" "$here/Tests/ApiTests.cs"
mcs "${mcs_flags[@]}" -out:"$out/Layout.exe" "$here/Carcassonne.cs" "$here/Layout/Layout.cs"
gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$root/include" "$here/layout.c" -o "$out/layout"

export LD_LIBRARY_PATH="$lib_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The API tests read tests/dsl/ and examples/ relative to the repository root.
cd "$root"

echo "== sample, seed ${SEED:-1}"
mono --debug "$out/Sample.exe" "${SEED:-1}"

echo "== API tests"
mono --debug "$out/ApiTests.exe"

echo "== struct layouts and constants: C# against C"
# Into files first: a failing program in a pipe or process substitution would go unnoticed.
"$out/layout" > "$out/layout-c.txt"
mono --debug "$out/Layout.exe" > "$out/layout-cs.txt"
sort "$out/layout-c.txt" > "$out/layout-c.sorted"
sort "$out/layout-cs.txt" > "$out/layout-cs.sorted"
if ! diff "$out/layout-c.sorted" "$out/layout-cs.sorted"; then
    echo "build.sh: the C# structs or constants differ from the header's (< C, > C#)" >&2
    exit 1
fi
# layout.c is written by hand: it must cover every struct and constant of the header.
header="$root/include/carcassonne.h"
for name in $(sed -n 's/^typedef struct \(carc_[a-z_]*\) {$/\1/p' "$header"); do
    grep -q "^size $name " "$out/layout-c.txt" || { echo "build.sh: layout.c misses struct $name" >&2; exit 1; }
done
{
    sed -n 's/^#define \(CARC_[A-Z0-9_]*\) \([0-9][0-9]*\)$/const \1 \2/p' "$header"
    sed -n 's/^ *\(CARC_RESULT_[A-Z0-9_]*\) = \([0-9]*\),$/const \1 \2/p' "$header"
} | sort > "$out/header-constants.sorted"
if ! grep '^const ' "$out/layout-c.sorted" | diff "$out/header-constants.sorted" -; then
    echo "build.sh: layout.c's constants differ from the header's (< header, > layout.c)" >&2
    exit 1
fi
echo "$(grep -c '^size ' "$out/layout-c.txt") structs and $(grep -c '^const ' "$out/layout-c.txt") constants agree"
echo "build.sh: all passed"
