//! With the `offline` feature, the server embeds the engine's WebAssembly build (made by
//! `bash wasm/build.sh`) for the page's offline mode: a missing file is named here, with the
//! command that makes it, instead of in an `include_bytes!` error.

use std::path::Path;

/// The files of the npm package the page's worker loads, under `wasm/npm`.
const ENGINE_FILES: [&str; 3] =
    ["index.js", "pkg/carcassonne_wasm.js", "pkg/carcassonne_wasm_bg.wasm"];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_OFFLINE").is_none() {
        return;
    }
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../wasm/npm");
    for file in ENGINE_FILES {
        let path = package.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        if !path.is_file() {
            eprintln!(
                "the `offline` feature embeds the engine's WebAssembly build, and {} is missing: \
                 run `bash wasm/build.sh` first",
                path.display()
            );
            std::process::exit(1);
        }
    }
}
