"""The web page in a real browser: headless Chromium (Debian's chromium with its driver)
opens the page, creates a room, adds a bot, plays a whole game through clicks, reloads the
page mid-game and goes on, and takes a screenshot at the end.

    python server/tests/browser/play_in_browser.py --server target/release/carcassonne-server \\
        --screenshot /tmp/game.png

Exits 0 when the game ended in the page and the reload resumed it; anything else fails
loudly with what the page showed.
"""

import argparse
import os
import socket
import subprocess
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(what, check, seconds=30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = check()
        except StaleElementReferenceException:
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def click_first(driver, selector):
    """Clicks the first element matching ``selector`` now, if there is one; whether it did."""
    return driver.execute_script(
        "const element = document.querySelector(arguments[0]);"
        "if (!element) return false;"
        "element.dispatchEvent(new MouseEvent('click', {bubbles: true}));"
        "return true;",
        selector,
    )


def visible(driver, element_id):
    return driver.execute_script(f"return !document.getElementById('{element_id}').hidden")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="the carcassonne-server binary")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--reload-after", type=int, default=6, help="turns before the reload")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for the whole game")
    args = parser.parse_args()

    port = free_port()
    server = subprocess.Popen(
        [args.server, "--addr", f"127.0.0.1:{port}", "--db", ":memory:", "--bot-delay", "0.1", "--figure-grace", "60"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900"):
        options.add_argument(flag)
    driver = None
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise AssertionError("the server never listened")
                time.sleep(0.05)
        driver = webdriver.Chrome(service=Service(args.chromedriver), options=options)
        driver.get(f"http://127.0.0.1:{port}/")
        wait_for("the lobby", lambda: visible(driver, "lobby"))
        name = driver.find_element(By.ID, "name")
        name.clear()
        name.send_keys("Tester")
        driver.find_element(By.ID, "room-name").clear()
        driver.find_element(By.ID, "room-name").send_keys("Browser room")
        driver.execute_script("document.getElementById('max-players').value = '2'")
        driver.find_element(By.ID, "create").click()
        wait_for("the room", lambda: visible(driver, "room"))
        driver.find_element(By.ID, "add-bot").click()
        wait_for("the bot in the room", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#members li")) == 2)
        assert "bot" in driver.find_element(By.ID, "members").text
        wait_for("start enabled", lambda: driver.find_element(By.ID, "start").is_enabled())
        driver.find_element(By.ID, "start").click()
        wait_for("the game", lambda: visible(driver, "game"))

        turns, figures, reloaded = 0, 0, False
        started = time.monotonic()
        while not visible(driver, "game-over"):
            if time.monotonic() - started > args.timeout:
                raise AssertionError(f"the game did not end in {args.timeout} s; turn text: {driver.find_element(By.ID, 'turn').text!r}")
            # Each action is found and clicked inside the page in one step: the page redraws
            # as messages arrive, so an element found first and clicked after may be gone.
            if click_first(driver, "rect.target:not(.other)"):
                turns += 1
                wait_for("the placement to land", lambda: not driver.find_elements(By.CSS_SELECTOR, "rect.target:not(.other)")
                         or visible(driver, "game-over"), 10)
            elif turns % 4 == 0 and click_first(driver, "circle.choice"):
                figures += 1
                time.sleep(0.05)
            elif click_first(driver, "#figure-choice:not([hidden]) #skip"):
                time.sleep(0.05)
            else:
                time.sleep(0.05)
            if turns == args.reload_after and not reloaded:
                tiles_before = len(driver.find_elements(By.CSS_SELECTOR, "#tiles image"))
                driver.refresh()
                reloaded = True
                wait_for("the game after the reload", lambda: visible(driver, "game"))
                wait_for("the board after the reload",
                         lambda: len(driver.find_elements(By.CSS_SELECTOR, "#tiles image")) >= tiles_before)
                print(f"reloaded after {turns} turns: {tiles_before} tiles before, "
                      f"{len(driver.find_elements(By.CSS_SELECTOR, '#tiles image'))} after")
        text = driver.find_element(By.ID, "game-over").text
        tiles = len(driver.find_elements(By.CSS_SELECTOR, "#tiles image"))
        events = len(driver.find_elements(By.CSS_SELECTOR, "#events li"))
        driver.save_screenshot(args.screenshot)
        print(f"game over after {turns} turns of ours ({figures} figures placed), {tiles} tiles on the board, "
              f"{events} events logged: {text!r}; screenshot {args.screenshot}")
        assert reloaded, "the page was never reloaded mid-game"
        assert "won" in text, text
        assert tiles >= 60, f"only {tiles} tiles drawn"
        assert events > 10
        download = driver.find_element(By.ID, "download").get_attribute("href")
        assert download.endswith("/games/r1"), download
        return 0
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        try:
            _, errors = server.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            _, errors = server.communicate()
        if errors:
            sys.stderr.write(errors.decode(errors="replace")[-2000:])


if __name__ == "__main__":
    sys.exit(main())
