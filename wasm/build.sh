#!/usr/bin/env bash
# Builds the npm package's WebAssembly module and its JavaScript and TypeScript bindings into
# wasm/npm/pkg: the engine compiled for wasm32-unknown-unknown (profile `wasm`), then bound by
# wasm-bindgen (the version Cargo.lock pins for the wasm-bindgen crate, installed when missing).
# `npm pack` in wasm/npm runs this first. Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(awk '/^name = "wasm-bindgen"$/ { getline; sub(/^version = "/, ""); sub(/"$/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    echo "installing wasm-bindgen-cli $version (it must match the crate's version)" >&2
    # Not --locked: its lock file names a webpki-roots release some registry mirrors lack;
    # the version pinned here is what must match.
    cargo install wasm-bindgen-cli --version "$version" >&2
fi
rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
cargo build -p carcassonne-wasm --target wasm32-unknown-unknown --profile wasm >&2
# Where cargo put it, whichever of CARGO_TARGET_DIR, CARGO_BUILD_TARGET_DIR or a config file
# chose the folder.
target=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
[ -n "$target" ] || { echo "cargo metadata named no target directory" >&2; exit 1; }
rm -rf wasm/npm/pkg
wasm-bindgen --target web --out-dir wasm/npm/pkg --out-name carcassonne_wasm \
    "$target/wasm32-unknown-unknown/wasm/carcassonne_wasm.wasm"
# wasm-bindgen writes a package.json and .gitignore of its own: the package is wasm/npm's.
rm -f wasm/npm/pkg/package.json wasm/npm/pkg/.gitignore
