#!/usr/bin/env bash
# Copies the page and the engine into one folder that any static web host can serve (or
# `python3 -m http.server`): without the server, the page finds no WebSocket and plays offline,
# against bots in the browser. The engine is the npm package's build: run `bash wasm/build.sh`
# first (or `npm pack` in wasm/npm, which runs it).
#
#     bash server/web/static-site.sh OUT
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUT (a folder to create or fill)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
package="$here/../../wasm/npm"
for file in index.js pkg/carcassonne_wasm.js pkg/carcassonne_wasm_bg.wasm; do
    [ -f "$package/$file" ] || { echo "wasm/npm/$file is missing: run 'bash wasm/build.sh' first" >&2; exit 1; }
done
mkdir -p "$1/engine/pkg"
cp "$here/index.html" "$here/app.js" "$here/review.js" "$here/style.css" "$here/offline-worker.js" "$here/review-worker.js" "$1/"
cp "$package/index.js" "$1/engine/"
cp "$package/pkg/carcassonne_wasm.js" "$package/pkg/carcassonne_wasm_bg.wasm" "$1/engine/pkg/"
echo "the page and its engine are in $1: serve that folder (for example: python3 -m http.server -d $1)"
