"""The npm package in a real browser, without a bundler: headless Chromium (through selenium)
opens pages served from a folder where the packed tarball was installed, as a user installs it.

1. The package README's ```html example, as written: the board of a new game shown as an
   image.
2. A module page that imports ``./node_modules/carcassonne/index.js`` and plays a whole game
   with a bot, applies a refused action (the game unchanged), analyses a turn with progress,
   saves and loads, steps back with ``upTo``, and speaks one frame to ``OfflineServer``.

    python wasm/npm/test/in_browser.py --folder FOLDER

FOLDER holds ``node_modules/carcassonne`` (``npm install ./carcassonne-0.1.0.tgz``). Exits 0
when both pages did what they should; anything else fails loudly with what the page said.
"""

import argparse
import functools
import http.server
import json
import pathlib
import re
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHECKS = """
import { Bot, Game, OfflineServer, analyze } from "./node_modules/carcassonne/index.js";
const result = {};
try {
  const game = new Game({ tilesets: ["base", "river"], players: 2, seed: 11 });
  const bot = new Bot("hard", 3);
  try { game.apply({ action: "place", pos: { x: 40, y: 40 }, rotation: 0 }); } catch (error) { result.refused = error.name; }
  result.unchanged = game.actions().length === 0;
  let partials = 0;
  while (!game.isOver) {
    if (game.actions().length === 20) {
      const analysis = analyze(game, { rollouts: 400, seed: 1, report_every: 0.01 }, () => { partials += 1; });
      result.analysed = analysis.moves.length;
    }
    game.apply(bot.choose(game));
  }
  result.partials = partials;
  result.scores = game.scores();
  const again = Game.loadJson(game.saveJson());
  result.reloaded = again.isOver && again.actions().length === game.actions().length;
  result.stepped = game.upTo(10).actions().length;
  const server = new OfflineServer();
  const hello = server.receive(JSON.stringify({ type: "CONNECT", data: { playerId: "p", name: "P", color: "" }, timestamp: new Date().toISOString(), messageId: "1" }));
  result.connected = JSON.parse(hello.frames[0]).type;
} catch (error) {
  result.error = `${error.name}: ${error.message}`;
}
window.__result = result;
"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def readme_html(readme):
    found = re.search(r"^```html\n(.*?)^```$", readme.read_text(), re.S | re.M)
    if not found:
        raise AssertionError(f"{readme} has no ```html example")
    return found.group(1)


def wait_for(what, check, seconds=60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", required=True, help="where the tarball is installed")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    folder = pathlib.Path(args.folder)
    if not (folder / "node_modules" / "carcassonne" / "index.js").is_file():
        raise AssertionError(f"{folder} has no node_modules/carcassonne: install the tarball there first")
    readme = pathlib.Path(__file__).resolve().parents[1] / "README.md"
    (folder / "readme-example.html").write_text(
        "<!doctype html>\n<meta charset=\"utf-8\">\n<title>the README's example</title>\n" + readme_html(readme))
    (folder / "checks.mjs").write_text(CHECKS)
    (folder / "checks.html").write_text(
        "<!doctype html>\n<meta charset=\"utf-8\">\n<title>checks</title>\n<script type=\"module\" src=\"checks.mjs\"></script>\n")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(args.chromedriver), options=options)
    try:
        driver.get(f"{base}/readme-example.html")
        shown = wait_for("the README example's board", lambda: driver.execute_script(
            "const picture = document.querySelector('img');"
            "return picture && picture.complete && picture.naturalWidth > 0 ? [picture.src, picture.naturalWidth] : null;"))
        assert shown[0].startswith("blob:"), shown
        print(f"the package README's page example shows the board ({shown[1]} px wide)")

        driver.get(f"{base}/checks.html")
        result = wait_for("the module page's checks", lambda: driver.execute_script("return window.__result || null"), 120)
        errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert "error" not in result, f"the page threw: {result['error']}; console: {errors}"
        assert result["refused"] == "IllegalActionError" and result["unchanged"], result
        assert result["analysed"] > 0 and result["partials"] > 0, result
        assert result["reloaded"] and result["stepped"] == 10 and result["connected"] == "CONNECTED", result
        print(f"a bundler-free module page: a whole game with the hard bot, scores {result['scores']}, "
              f"{result['analysed']} moves analysed ({result['partials']} progress calls), "
              f"saved and loaded, upTo, OfflineServer: {json.dumps(result)}")
        return 0
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
