#!/usr/bin/env bash
# Copies the page and the engine into one folder that any static web host can serve (or
# `python3 -m http.server`): without the server, the page finds no WebSocket and plays offline,
# against bots in the browser. The engine is the npm package's build: run `bash wasm/build.sh`
# first (or `npm pack` in wasm/npm, which runs it).
#
# The server sends security headers on every response (its Content-Security-Policy, the
# workers' own policy, nosniff, no framing, no referrer, its own browsing context); a static
# host must send them too. The folder carries them as `_headers`, which Netlify and Cloudflare
# Pages read; any other host must set them itself, as docs/static-hosting.md shows for nginx,
# Caddy and Apache.
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
cp "$here/index.html" "$here/app.js" "$here/review.js" "$here/style.css" "$here/offline-worker.js" "$here/review-worker.js" "$here/_headers" "$1/"
cp "$package/index.js" "$1/engine/"
cp "$package/pkg/carcassonne_wasm.js" "$package/pkg/carcassonne_wasm_bg.wasm" "$1/engine/pkg/"
echo "the page and its engine are in $1: serve that folder (for example: python3 -m http.server -d $1)"
echo "its security headers are in $1/_headers, which Netlify and Cloudflare Pages read; any other host must set them itself (docs/static-hosting.md)"
