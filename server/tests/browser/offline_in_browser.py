"""The page's offline mode in a real browser (headless Chromium through selenium): the engine
in a Web Worker hosts the room and its bot.

1. **No server at all**: the page and its engine copied into a folder
   (``server/web/static-site.sh``) and served by a static file server. The page finds no
   WebSocket, says it plays offline, and a whole game against a bot runs to its end in the
   browser; the finished game downloads from memory as a saved game the engine reads back.
2. **From the server** (built with ``--features offline``): the page starts online, the player
   chooses "Play offline", plays turns against a bot in the worker under the server's
   Content-Security-Policy (no violation), and goes back online.

After the first game, its review: turn 5 analysed in a worker to its end, the heat map with
the best move and the move played drawn; a whole-game review started, its estimate of the time
left shown, and cancelled.

    python server/tests/browser/offline_in_browser.py --site /tmp/site \\
        --server target/release/carcassonne-server --screenshot /tmp/offline.png

Exits 0 when both held; anything else fails loudly with what the page showed.
"""

import argparse
import functools
import http.server
import json
import sys
import threading
import time

from selenium.webdriver.common.by import By

from play_in_browser import (PAGE_PROBES, click_first, csp_problems, free_port, headless_chromium, start_server,
                             text_of, visible, wait_for, wait_listening)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """A static file server that says nothing per request, and serves WebAssembly as such."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def serve_folder(folder):
    """Serves ``folder`` on 127.0.0.1 in a thread; returns the server (shut it down after)."""
    handler = functools.partial(QuietHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def new_room(driver, level):
    """From the lobby: a room of two, a bot of ``level``, the game started."""
    wait_for("the lobby", lambda: visible(driver, "lobby"))
    name = driver.find_element(By.ID, "name")
    if not name.get_attribute("value"):
        name.send_keys("Ada")
    driver.execute_script("document.getElementById('max-players').value = '2'")
    driver.find_element(By.ID, "create").click()
    wait_for("the room", lambda: visible(driver, "room"))
    driver.execute_script(f"document.getElementById('bot-level').value = '{level}'")
    driver.find_element(By.ID, "add-bot").click()
    wait_for("the bot in the room", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#members li")) == 2)
    wait_for("start enabled", lambda: driver.find_element(By.ID, "start").is_enabled())
    driver.find_element(By.ID, "start").click()
    wait_for("the game", lambda: visible(driver, "game"))


def play(driver, timeout, most_turns=None):
    """Plays the page's turns by clicks (a figure every fourth turn) until the game ends or
    ``most_turns`` are played; returns the turns played."""
    turns = 0
    started = time.monotonic()
    while not visible(driver, "game-over") and (most_turns is None or turns < most_turns):
        if time.monotonic() - started > timeout:
            raise AssertionError(f"no end in {timeout} s; turn text: {text_of(driver, 'turn')!r}")
        if click_first(driver, "rect.target:not(.other)"):
            turns += 1
            wait_for("the placement to land", lambda: not driver.find_elements(By.CSS_SELECTOR, "rect.target:not(.other)")
                     or visible(driver, "game-over"), 10)
        elif turns % 4 == 0 and click_first(driver, "circle.choice"):
            time.sleep(0.05)
        elif click_first(driver, "#figure-choice:not([hidden]) #skip"):
            time.sleep(0.05)
        else:
            time.sleep(0.05)
    return turns


def tile_sources(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#tiles image')].map((image) => image.getAttribute('href'))")


def without_server(driver, site, timeout, screenshot):
    """The static copy of the page: offline by itself, a whole game against a bot."""
    static = serve_folder(site)
    # The test reads back the object URLs the page made (the download, the review's board),
    # which the page's own policy (connect-src) lets no script fetch: here the policy is set
    # aside; from_server checks the page under it.
    driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
    try:
        url = f"http://127.0.0.1:{static.server_address[1]}/"
        driver.get(url)
        wait_for("the page to say it plays offline",
                 lambda: "No server answers here" in text_of(driver, "notice-text"), 30)
        wait_for("the engine", lambda: "offline" in text_of(driver, "status") and "starting" not in text_of(driver, "status"), 30)
        sets = driver.execute_script("return [...document.querySelectorAll('#sets input')].map((box) => box.value)")
        assert "base" in sets and len(sets) > 5, f"the sets offered offline: {sets}"
        new_room(driver, "medium")
        started = time.monotonic()
        turns = play(driver, timeout)
        seconds = time.monotonic() - started
        text = text_of(driver, "game-over")
        assert "won" in text, text
        sources = tile_sources(driver)
        assert len(sources) >= 60, f"only {len(sources)} tiles on the board"
        assert all(source.startswith("blob:") for source in sources), sources[:3]
        wait_for("the download link", lambda: (driver.find_element(By.ID, "download").get_attribute("href") or "").startswith("blob:"), 10)
        saved = driver.execute_async_script(
            "const done = arguments[0];"
            "fetch(document.getElementById('download').href).then((r) => r.text()).then(done, (e) => done(String(e)));")
        game = json.loads(saved)
        assert game.get("actions"), "the downloaded game has no actions"
        driver.save_screenshot(screenshot)
        print(f"without a server: a game against the medium bot ended after {turns} turns of ours in "
              f"{seconds:.0f} s, {len(sources)} tiles, {len(game['actions'])} actions saved; {text!r}; "
              f"screenshot {screenshot}")
        review_game(driver, screenshot)
    finally:
        driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": False})
        static.shutdown()


def review_game(driver, screenshot):
    """The game just played, reviewed: steps, one turn analysed to its end with its best move
    drawn, a whole-game review cancelled part-way and the analyzer still answering."""
    driver.find_element(By.ID, "review-game").click()
    wait_for("the review", lambda: visible(driver, "review") and "Turn 1 of" in text_of(driver, "review-turn"), 30)
    for _ in range(4):
        driver.find_element(By.ID, "review-next").click()
    try:
        wait_for("turn 5", lambda: text_of(driver, "review-turn").startswith("Turn 5 of"), 10)
    except AssertionError:
        raise AssertionError(f"the review shows {text_of(driver, 'review-turn')!r}, {text_of(driver, 'review-error')!r}")
    started = time.monotonic()
    driver.find_element(By.ID, "review-analyze").click()
    wait_for("the progress", lambda: visible(driver, "review-progress") or driver.execute_script(
        "return document.getElementById('review-status').dataset.done === '5'"), 10)
    wait_for("the analysis of turn 5", lambda: driver.execute_script(
        "return document.getElementById('review-status').dataset.done === '5'"), 120)
    seconds = time.monotonic() - started
    status = text_of(driver, "review-status")
    assert "best" in status, status
    ranking = driver.execute_script("return [...document.querySelectorAll('#review-ranking li')].map((item) => item.textContent)")
    assert ranking and "margin" in ranking[0], ranking
    board = driver.execute_async_script(
        "const done = arguments[0];"
        "fetch(document.getElementById('review-board').src).then((r) => r.text()).then(done, (e) => done(String(e)));")
    for drawn in ('class="shade"', 'class="suggestion"', 'class="played-outline"'):
        assert drawn in board, f"the heat map lacks {drawn}"
    stem, dot, ext = screenshot.rpartition(".")
    shot = f"{stem}-review.{ext}" if dot else f"{screenshot}-review"
    driver.save_screenshot(shot)
    print(f"review: turn 5 analysed in {seconds:.1f} s: {status!r}; first of the ranking {ranking[0]!r}; screenshot {shot}")
    driver.find_element(By.ID, "review-all").click()
    wait_for("the whole review under way", lambda: visible(driver, "review-cancel"), 10)
    wait_for("an estimate of the time left", lambda: "left" in text_of(driver, "review-eta"), 60)
    driver.find_element(By.ID, "review-cancel").click()
    assert not visible(driver, "review-cancel")
    driver.find_element(By.ID, "review-last").click()
    wait_for("the end of the game after the cancel", lambda: text_of(driver, "review-turn").startswith("The end of the game"), 30)
    print("review: a whole-game review cancelled part-way; the analyzer answered after it")
    driver.find_element(By.ID, "review-close").click()
    wait_for("the game again", lambda: visible(driver, "game"))


def from_server(driver, server_bin, turns):
    """The server's page: online, then offline by choice (under the server's policy), then back."""
    port = free_port()
    server = start_server(server_bin, port)
    try:
        wait_listening(server, port)
        driver.get(f"http://127.0.0.1:{port}/")
        wait_for("online", lambda: text_of(driver, "status") == "online")
        csp_problems(driver)
        driver.find_element(By.ID, "mode").click()
        wait_for("offline", lambda: text_of(driver, "status").startswith("offline: the engine"), 30)
        new_room(driver, "hard")
        played = play(driver, 120, most_turns=turns)
        assert played == turns, played
        sources = tile_sources(driver)
        assert sources and all(source.startswith("blob:") for source in sources), sources[:3]
        problems = csp_problems(driver)
        assert not problems, f"Content-Security-Policy violations offline: {problems}"
        driver.find_element(By.ID, "mode").click()
        wait_for("online again", lambda: text_of(driver, "status") == "online", 30)
        wait_for("the lobby", lambda: visible(driver, "lobby"))
        print(f"from the server: offline by choice, {played} turns against the hard bot in the worker "
              f"under the server's policy, then online again")
    finally:
        server.terminate()
        server.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", required=True, help="the folder server/web/static-site.sh filled")
    parser.add_argument("--server", required=True, help="a carcassonne-server built with --features offline")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for the whole game")
    parser.add_argument("--turns", type=int, default=4, help="turns played offline from the server's page")
    args = parser.parse_args()

    driver = headless_chromium(args.chromium, args.chromedriver)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PAGE_PROBES})
        without_server(driver, args.site, args.timeout, args.screenshot)
        from_server(driver, args.server, args.turns)
        return 0
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
