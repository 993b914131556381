// The carcassonne engine as an ES module. Importing it loads the WebAssembly once, by top-level
// await: in node from the package's file, in a browser (a page or a worker, bundler or none)
// from beside this file. Everything it exports is ready to use on import.
import init from "./pkg/carcassonne_wasm.js";

const wasm = new URL("./pkg/carcassonne_wasm_bg.wasm", import.meta.url);
if (wasm.protocol === "file:") {
  // Node (and other runtimes without fetch for files) read the module from disk.
  // Bundlers leave this import alone: a page never reaches it.
  const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ "node:fs/promises");
  await init({ module_or_path: await readFile(wasm) });
} else {
  await init({ module_or_path: wasm });
}

// The module's classes and functions, usable once the await above has loaded it (an importer
// of this file waits for that).
export {
  Bot,
  Game,
  OfflineServer,
  analysisSvg,
  analyze,
  builtinSets,
  pageBots,
  pageCatalogue,
  pageTileset,
  review,
  tileSvg,
} from "./pkg/carcassonne_wasm.js";
