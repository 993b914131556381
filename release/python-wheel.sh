#!/usr/bin/env bash
# The Python wheel: one abi3 wheel (every CPython from 3.9) for x86-64 Linux with the
# manylinux2014 tag (glibc 2.17 or newer: RHEL 7, Ubuntu 14.04 and every later distribution),
# built by maturin and checked by auditwheel.
#
# A plain `pip install ./python` builds against this machine's glibc, so its wheel is tagged
# linux_x86_64 (auditwheel would call it manylinux_2_35 here: it needs glibc 2.35 or newer).
# The release wheel is linked with zig instead, which targets glibc 2.17's symbols from any
# machine; maturin drives it (--zig), and the ziglang package from the registry provides it.
#
# Usage: bash release/python-wheel.sh [--out FOLDER]
#   --out  where the wheel goes (default: ${CARGO_TARGET_DIR:-target}/wheels)
# The build tools go into a virtual environment of their own under the target folder.
# Prints the wheel's path on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."

out=""
while (($#)); do
    case $1 in
        --out) out=$2; shift 2 ;;
        *) echo "unknown argument $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
cargo_target=${CARGO_TARGET_DIR:-target}
out=${out:-$cargo_target/wheels}
tools=$cargo_target/python-wheel-tools

# Pinned, so that a release is built the same way each time.
if [[ ! -x $tools/bin/maturin || ! -x $tools/bin/auditwheel ]] || ! "$tools/bin/python" -m ziglang version > /dev/null 2>&1; then
    python3 -m venv "$tools"
    "$tools/bin/pip" install --quiet --disable-pip-version-check \
        'maturin==1.16.0' 'ziglang==0.17.1' 'auditwheel==6.8.2'
fi

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' python/Cargo.toml | head -n 1)
mkdir -p "$out"
rm -f "$out"/carcassonne-"$version"-*.whl
# maturin finds zig as `python3 -m ziglang`, so the tools' python must come first.
PATH="$(cd "$tools/bin" && pwd):$PATH" maturin build --quiet --release --locked --zig \
    --compatibility manylinux2014 -m python/Cargo.toml -o "$out" >&2
wheel=$(ls "$out"/carcassonne-"$version"-cp39-abi3-*.whl)

# auditwheel reads the symbols the module needs and names the oldest platform that has them.
report=$("$tools/bin/auditwheel" show "$wheel")
echo "$report" >&2
if ! grep -q 'consistent' <<< "$report" || ! tr -s ' \n' ' ' <<< "$report" | grep -q 'platform tag: "manylinux_2_17_x86_64"'; then
    echo "auditwheel does not accept $wheel as manylinux_2_17_x86_64" >&2
    exit 1
fi
echo "$wheel"
