"""The web page in a real browser: headless Chromium (Debian's chromium with its driver)
opens the page, checks that a hostile player's name, room name and colour cannot inject
markup or script into it, creates a room, adds a bot, plays a whole game (one placement by
keyboard only, the rest through clicks), reloads the page mid-game and goes on, and takes a
screenshot at the end. Then a second game from the lobby with every set and six seats (the
page and five bots), in which the page places a builder, a pig and a shepherd, tends a flock
and takes a builder's second turn; its screenshot is saved beside the first (``-every-set``).

    python server/tests/browser/play_in_browser.py --server target/release/carcassonne-server \\
        --screenshot /tmp/game.png

Along the way: every response of the page carries the Content-Security-Policy and the page
breaks none of it; the tile sets offered and the colours drawn come from GET /tilesets; an
error is shown next to the control whose message it refuses; an action taken while the
connection is down is sent when it is back; players are told apart by seat numbers as well
as colours.

Names are bidi runs of their own: the page's player has a right-to-left name ending in digits
(``RTL_NAME``) and its room a right-to-left name, and wherever a name or a room name is shown
(the room list, the members, the header, the scoreboard, the events, the game's end, the
finished games) it stands alone in an element whose computed ``unicode-bidi`` isolates it, and
the page's words and scores after it ("(you)", "host", a score) are drawn to its right. Without
isolation the name's direction runs into them: in the finished games, the page's score is
drawn left of its own name.

Exits 0 when the game ended in the page and the reload resumed it; anything else fails
loudly with what the page showed.
"""

import argparse
import json
import re
import socket
import subprocess
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">'
HOSTILE_ROOM = "<script>window.__pwned=2</script><b>room</b>"
HOSTILE_COLOUR = 'red" onmouseover="window.__pwned=3'
# The page's player and its room, right to left and ending in digits: no bidi control character
# (the server refuses those), yet without isolation their direction takes in the page's words
# and digits beside them.
RTL_NAME = "מלורי 7"
RTL_ROOM = "חדר 2"

# Runs in each new document before its own scripts (CDP scripts are exempt from the page's
# policy): records every Content-Security-Policy violation, load time included, and keeps the
# page's sockets so that the test can cut the connection and hold it down (while
# window.__offline is set, a new socket asks for a path that is no WebSocket, and fails).
PAGE_PROBES = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__cspViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`);
});
window.__sockets = [];
window.__offline = false;
window.WebSocket = class extends window.WebSocket {
  constructor(url, protocols) {
    super(window.__offline ? String(url).replace(/\\/ws$/, '/offline') : url, protocols);
    window.__sockets.push(this);
  }
};
"""

# A hostile player with a socket of its own: first a colour that is markup (the server must
# refuse it), then a name and a room name that are markup, in a room whose seed it chooses. The
# socket stays open so that the room stays listed.
HOSTILE = """
const [url, name, roomName, colour, done] = arguments;
const result = {refused: null, room: null, error: null};
let count = 0, finished = false;
const finish = (extra) => { if (!finished) { finished = true; done(Object.assign(result, extra || {})); } };
setTimeout(() => finish({error: 'timed out'}), 20000);
const envelope = (type, data) => JSON.stringify(
  {type, data, timestamp: new Date().toISOString(), messageId: `hostile-${++count}`});
const open = (hello, onMessage) => {
  const ws = new WebSocket(url);
  ws.onopen = () => ws.send(envelope('CONNECT', hello));
  ws.onmessage = (event) => onMessage(ws, JSON.parse(event.data));
  ws.onerror = () => finish({error: 'socket error'});
  return ws;
};
const createRoom = () => {
  window.__hostile = open({playerId: 'hostile-player', name, color: ''}, (ws, message) => {
    if (message.type === 'CONNECTED') ws.send(envelope('CREATE_ROOM', {roomName, maxPlayers: 2, seed: 42}));
    else if (message.type === 'ROOM_STATE') { result.room = message.data.roomId; finish(); }
    else if (message.type === 'ERROR') finish({error: message.data});
  });
};
open({playerId: 'hostile-colour', name: 'Colour', color: colour}, (ws, message) => {
  if (message.type !== 'ERROR' && message.type !== 'CONNECTED') return;
  result.refused = message.type === 'ERROR' ? message.data : {code: 'accepted: ' + JSON.stringify(message.data)};
  ws.onerror = null;
  ws.close();
  createRoom();
});
"""

# Elements that markup in a name or a room name would have made.
INJECTED = "body img:not(#drawn-tile):not(#review-board), body b, body script, body [onerror], body [onmouseover]"

# Each text node under arguments[0] (a selector) holding arguments[1] (a user's text): the
# element holding it, whether that element holds the user's text alone, and its computed
# unicode-bidi. (A block such as a list item or a table cell is an isolate by the browser's own
# style, so an isolate is not enough: the page's words must not share it with the name.)
BIDI_HOLDERS = """
const [selector, text] = arguments;
const found = [];
for (const root of document.querySelectorAll(selector)) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.includes(text)) continue;
    const holder = node.parentElement;
    found.push({element: holder.tagName.toLowerCase() + (holder.id ? `#${holder.id}` : ''),
                alone: node.data === text && holder.textContent === text,
                bidi: getComputedStyle(holder).unicodeBidi, text: holder.textContent});
  }
}
return found;
"""

# Where the pieces arguments[1] (strings, in reading order) of the element arguments[0]'s text
# are drawn: for each, [piece, left, right, top, bottom] of a Range over it.
BIDI_BOXES = """
const [root, pieces] = arguments;
const text = root.textContent;
const rangeOver = (start, end) => {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let at = 0, started = false;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const next = at + node.data.length;
    if (!started && start < next) { range.setStart(node, start - at); started = true; }
    if (started && end <= next) { range.setEnd(node, end - at); return range; }
    at = next;
  }
  return null;
};
const boxes = [];
let from = 0;
for (const piece of pieces) {
  const start = text.indexOf(piece, from);
  if (start < 0) return `no ${JSON.stringify(piece)} after character ${from} of ${JSON.stringify(text)}`;
  const box = rangeOver(start, start + piece.length).getBoundingClientRect();
  boxes.push([piece, box.left, box.right, box.top, box.bottom]);
  from = start + piece.length;
}
return boxes;
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def headless_chromium(chromium, chromedriver):
    """Headless Chromium through its driver, 1400 by 900, keeping the browser's console log."""
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(chromedriver), options=options)


def start_server(binary, port, *flags):
    """The server on 127.0.0.1:``port``, games in memory, its log kept for a failure."""
    return subprocess.Popen([binary, "--addr", f"127.0.0.1:{port}", "--db", ":memory:", *flags],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_listening(server, port, seconds=20.0):
    """Returns once ``server`` accepts connections on ``port``; fails if it exits or never does."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise AssertionError("the server never listened")
            time.sleep(0.05)


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


def text_of(driver, element_id):
    return driver.execute_script(f"return document.getElementById('{element_id}').textContent")


def assert_isolated(driver, selector, text, where, required=True):
    """Every text node under ``selector`` that shows ``text`` (a user's) holds it alone, in an
    element that holds nothing else and whose computed unicode-bidi isolates it: the text is a
    bidi run of its own. With ``required``, it must be shown there at least once."""
    found = driver.execute_script(BIDI_HOLDERS, selector, text)
    assert found or not required, f"{text!r} is not shown in {where} ({selector}): the bidi check would prove nothing"
    shared = [spot for spot in found
              if not spot["alone"] or spot["bidi"] not in ("isolate", "isolate-override", "plaintext")]
    assert not shared, (
        f"in {where}, {text!r} is no bidi run of its own, so its direction runs into the page's words: "
        + "; ".join(f"<{spot['element']}> (unicode-bidi: {spot['bidi']}) holds {spot['text']!r}" for spot in shared))
    return len(found)


def assert_drawn_in_order(driver, element, pieces, where, may_wrap=False):
    """The pieces of ``element``'s text (the page's words and a user's, in reading order) are
    drawn left to right, each after the one before: a name's direction has not carried the
    page's words or digits beside it to its other side. Pieces on more than one line cannot be
    compared: that fails, or with ``may_wrap`` returns False; True when compared."""
    boxes = driver.execute_script(BIDI_BOXES, element, list(pieces))
    assert isinstance(boxes, list), f"in {where}: {boxes}"
    # One line when every piece's middle lies within the first piece's height (a fallback font
    # for the Hebrew may sit a little higher or lower).
    _, _, _, top, bottom = boxes[0]
    if any(abs((other_top + other_bottom) / 2 - (top + bottom) / 2) > (bottom - top) / 2
           for _, _, _, other_top, other_bottom in boxes):
        assert may_wrap, f"in {where}, {element.get_attribute('textContent')!r} wrapped: its order cannot be checked ({boxes})"
        return False
    for (before, _, right, _, _), (after, left, _, _, _) in zip(boxes, boxes[1:]):
        assert left >= right - 1, (
            f"in {where} {element.get_attribute('textContent')!r}, {after!r} is drawn at x={left:.0f}, left of the end "
            f"of {before!r} at x={right:.0f}: a name's direction ran into the page's words (drawn {boxes})")
    return True


def rgb(shade):
    """'#d62828' as the browser reports a computed colour: 'rgb(214, 40, 40)'."""
    digits = shade.lstrip("#")
    if len(digits) == 3:
        digits = "".join(digit * 2 for digit in digits)
    return "rgb({}, {}, {})".format(*(int(digits[at:at + 2], 16) for at in (0, 2, 4)))


def csp_problems(driver):
    """The policy violations the page reported, and those the browser logged, since the last call."""
    found = driver.execute_script("return window.__cspViolations")
    assert isinstance(found, list), "the violation listener is missing: the check would prove nothing"
    logged = [entry["message"] for entry in driver.get_log("browser")
              if "Content Security Policy" in entry["message"] or "Content-Security-Policy" in entry["message"]]
    return found + logged


def keyboard_turn(driver):
    """Plays one placement with the keyboard only: r turns the tile, a target takes focus,
    Enter places (a first Enter on a target where the tile does not fit as turned turns it)."""
    src = "return document.getElementById('drawn-tile').getAttribute('src')"
    before = driver.execute_script(src)
    ActionChains(driver).send_keys("r").perform()
    wait_for("the r key to turn the tile", lambda: driver.execute_script(src) != before, 5)
    label = driver.execute_script(
        "const target = document.querySelector('rect.target');"
        "if (!target) return null;"
        "target.focus();"
        "return document.activeElement === target ? target.getAttribute('aria-label') : null;")
    assert label, "no placement target took focus"
    for _ in range(2):
        focused = driver.execute_script(
            "const element = document.activeElement;"
            "return element && element.matches('rect.target') ? "
            "[element.classList.contains('other'), element.getAttribute('aria-label'), element.getAttribute('role'),"
            " element.getAttribute('tabindex')] : null;")
        assert focused, "focus left the placement target"
        other, label, role, tabindex = focused
        assert role == "button" and tabindex == "0", focused
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        if not other:
            assert re.fullmatch(r"place the tile at -?\d+, -?\d+ turned \d+°", label), label
            break
    wait_for("the keyboard placement to land", lambda: not driver.find_elements(By.CSS_SELECTOR, "rect.target")
             or visible(driver, "game-over"), 10)
    # Focus stays where keyboard play goes on: a figure, "No figure", or the board.
    where = driver.execute_script(
        "const element = document.activeElement;"
        "return element.id || element.getAttribute('class') || element.tagName;")
    assert where in ("board", "skip") or "choice" in where, f"focus fell to {where!r} after the placement"
    print(f"placed a tile by keyboard: {label!r}; focus then on {where!r}")


EVERY_SET = ("river", "inns_and_cathedrals", "cathars", "traders_and_builders", "hills_and_sheep",
             "king_and_robber", "cult")
SPECIALS = ("builder", "pig", "shepherd")
# The seed of the first game of every set; the next games take the next seeds. At most this
# many are played (each about 35 s here).
EVERY_SET_SEED = 1
EVERY_SET_GAMES = 4


# Clicks a placement target beside a tile holding the page's builder, else its shepherd, else
# one of its followers, when there is one (so that a builder's road or city, a flock's field or
# a pig's field may grow), else the first target
# that fits as the tile is turned. A target beside a follower where the tile fits only turned
# is clicked too: that turns the tile, and the next call places it. Returns whether it clicked.
NEAR_OWN = """
const cellsOf = (figure) => new Set([...document.querySelectorAll(`#figures .figure[data-figure=${figure}]`)]
  .filter((mark) => mark.querySelector('title').textContent.includes('(seat 1)'))
  .map((mark) => {
    const box = mark.getBBox();
    return `${Math.floor((box.x + box.width / 2) / 100)},${-Math.floor((box.y + box.height / 2) / 100)}`;
  }));
const beside = (cells) => (target) => {
  const [x, y] = target.dataset.cell.split(',').map(Number);
  return [[1, 0], [-1, 0], [0, 1], [0, -1]].some(([dx, dy]) => cells.has(`${x + dx},${y + dy}`));
};
const targets = [...document.querySelectorAll('rect.target')];
const fits = (target) => !target.classList.contains('other');
let pick = null;
for (const near of [beside(cellsOf('builder')), beside(cellsOf('shepherd')), beside(cellsOf('follower'))]) {
  pick = pick || targets.find((t) => near(t) && fits(t)) || targets.find((t) => near(t));
}
pick = pick || targets.find(fits);
if (!pick) return false;
pick.dispatchEvent(new MouseEvent('click', {bubbles: true}));
return true;
"""


def play_every_set(driver, seed, timeout, screenshot):
    """A second game from the lobby: six seats (the page and five bots), every set at once, a
    seed chosen in the form. The page places a builder, a pig or a shepherd wherever one may go
    and a follower otherwise (so that builders and pigs find their followers), grows a flock
    while it is small and drives it after; returns what it did and saw."""
    click_first(driver, "#game-over button")
    wait_for("the lobby again", lambda: visible(driver, "lobby"))
    driver.find_element(By.ID, "room-name").clear()
    driver.find_element(By.ID, "room-name").send_keys("Every set")
    for box in driver.find_elements(By.CSS_SELECTOR, "input[name=set]"):
        if (box.get_attribute("value") in EVERY_SET) != box.is_selected():
            box.click()
    driver.execute_script("document.getElementById('max-players').value = '6'")
    assert driver.execute_script("return document.getElementById('max-players').value") == "6", \
        "six seats are offered with every set"
    driver.find_element(By.ID, "seed").clear()
    driver.find_element(By.ID, "seed").send_keys(str(seed))
    driver.find_element(By.ID, "create").click()
    wait_for("the room", lambda: visible(driver, "room"))
    driver.execute_script("document.getElementById('bot-level').value = 'easy'")
    for count in range(2, 7):
        driver.find_element(By.ID, "add-bot").click()
        wait_for(f"{count} seats", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#members li")) == count)
    assert str(seed) in text_of(driver, "room-seed"), "the chosen seed is shown in the room"
    wait_for("start enabled", lambda: driver.find_element(By.ID, "start").is_enabled())
    driver.find_element(By.ID, "start").click()
    wait_for("the game", lambda: visible(driver, "game"))
    in_hand = wait_for("the scores", lambda: driver.execute_script(
        "const row = document.querySelector('#scores tbody tr');"
        "return row ? row.cells[3].textContent : null;"))
    assert "builder" in in_hand and "pig" in in_hand and "shepherd" in in_hand, in_hand

    placed = {figure: 0 for figure in SPECIALS}
    followers, grown, driven, second_turns, turns = 0, 0, 0, 0, 0
    started = time.monotonic()
    while not visible(driver, "game-over"):
        if time.monotonic() - started > timeout:
            raise AssertionError(f"the game of every set did not end in {timeout} s; turn: {text_of(driver, 'turn')!r}")
        if "second turn" in text_of(driver, "turn") and "Your" in text_of(driver, "turn"):
            second_turns += 1
        if visible(driver, "flock-choice"):
            sheep = driver.execute_script("return document.getElementById('flock-text').textContent")
            small = re.search(r"has (\d+) sheep", sheep)
            if small and int(small.group(1)) < 4 and click_first(driver, "#flock-choice #grow:not([disabled])"):
                grown += 1
            elif click_first(driver, "#flock-choice #drive"):
                driven += 1
            wait_for("the flock's choice to land", lambda: not visible(driver, "flock-choice")
                     or visible(driver, "game-over"), 10)
            continue
        if driver.find_elements(By.CSS_SELECTOR, "rect.target") and driver.execute_script(NEAR_OWN):
            if not driver.find_elements(By.CSS_SELECTOR, "rect.target"):
                turns += 1
            time.sleep(0.05)
            continue
        chosen = None
        for figure in SPECIALS:
            if click_first(driver, f".choice[data-figure={figure}]"):
                chosen = figure
                break
        # A farmer while the page has none on the board (for a pig), else followers on roads
        # and cities (for a builder).
        farming = driver.execute_script(
            "return [...document.querySelectorAll('#figures .figure[data-figure=follower] title')]"
            ".some((title) => title.textContent.includes('(seat 1)') && title.textContent.includes('farmer'))")
        farmer = not farming and click_first(driver, ".choice[data-figure=follower][aria-label*=farmer]")
        if chosen:
            placed[chosen] += 1
        elif farmer or click_first(driver, ".choice[data-figure=follower][aria-label*=road]") \
                or click_first(driver, ".choice[data-figure=follower][aria-label*=city]") \
                or click_first(driver, ".choice[data-figure=follower]"):
            followers += 1
        elif not click_first(driver, "#figure-choice:not([hidden]) #skip"):
            time.sleep(0.05)
            continue
        wait_for("the figure step to land", lambda: not driver.find_elements(By.CSS_SELECTOR, ".choice")
                 or visible(driver, "game-over"), 10)
    flocks = driver.execute_script("return document.querySelectorAll('#figures .flock').length")
    shepherds = driver.execute_script("return document.querySelectorAll('#figures [data-figure=shepherd]').length")
    driver.save_screenshot(screenshot)
    log = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#events li")]
    print(f"every set, 6 seats, seed {seed}: {turns} turns of ours, specials placed {placed}, {followers} followers, "
          f"flocks grown {grown} and driven {driven}, {second_turns} second-turn moments, {shepherds} shepherds and "
          f"{flocks} flocks on the final board; screenshot {screenshot}")
    return placed, grown + driven, second_turns, shepherds, flocks, log


def hostile_player(driver, port):
    """A second player, in a window of its own, tries a hostile colour, then creates a room
    under a hostile name and room name; the id of that room."""
    victim = driver.current_window_handle
    before = set(driver.window_handles)
    driver.execute_script("window.open('about:blank', 'hostile')")
    hostile = wait_for("the hostile window", lambda: set(driver.window_handles) - before, 10).pop()
    driver.switch_to.window(hostile)
    driver.set_script_timeout(30)
    result = driver.execute_async_script(HOSTILE, f"ws://127.0.0.1:{port}/ws", HOSTILE_NAME, HOSTILE_ROOM, HOSTILE_COLOUR)
    driver.switch_to.window(victim)
    refused = result.get("refused") or {}
    assert refused.get("code") == "INVALID_COLOR", f"a colour that is markup was not refused: {result}"
    assert result.get("room") and not result.get("error"), f"the hostile room was not created: {result}"
    return result["room"]


def check_xss(driver, port):
    """The victim's page shows the hostile names as text, builds no element from them, runs
    none of their script, and shows a refusal next to the control that caused it."""
    room = hostile_player(driver, port)
    wait_for("the hostile room in the list", lambda: HOSTILE_ROOM in driver.find_element(By.ID, "rooms").text)
    assert_isolated(driver, "#rooms", HOSTILE_ROOM, "the room list")
    name = driver.find_element(By.ID, "name")
    name.clear()
    # Set, not typed: the driver's keys are the keyboard's, and the name is Hebrew.
    driver.execute_script("arguments[0].value = arguments[1]", name, RTL_NAME)
    joined = driver.execute_script(
        "const join = [...document.querySelectorAll('#rooms button')].find((b) => b.dataset.room === arguments[0]);"
        "if (!join) return false;"
        "join.click();"
        "return true;", room)
    assert joined, "no Join button for the hostile room"
    wait_for("the hostile room", lambda: visible(driver, "room"))
    wait_for("both players in the room", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#members li")) == 2)
    members = driver.find_element(By.ID, "members").text
    assert HOSTILE_NAME in members, members
    assert text_of(driver, "room-title") == HOSTILE_ROOM, text_of(driver, "room-title")
    # Each name a bidi run of its own, "(you)" and "host" drawn after the names they follow.
    for text, word in ((HOSTILE_NAME, "host"), (RTL_NAME, "(you)")):
        assert_isolated(driver, "#members", text, "the members list")
        item = driver.execute_script(
            "return [...document.querySelectorAll('#members li')].find((li) => li.textContent.includes(arguments[0]))", text)
        assert_drawn_in_order(driver, item, (text, word), "the members list")
    assert_isolated(driver, "#room-title", HOSTILE_ROOM, "the room's title")
    wait_for("the page's name in the header", lambda: RTL_NAME in text_of(driver, "who"), 10)
    assert_isolated(driver, "#who", RTL_NAME, "the header")
    # Everyone in the room knows when the host chose the seed.
    assert text_of(driver, "room-seed") == "seed chosen by the host: 42", text_of(driver, "room-seed")
    seats = [badge.text for badge in driver.find_elements(By.CSS_SELECTOR, "#members .badge")]
    assert seats == ["1", "2"], f"seat numbers in the member list: {seats}"
    # A non-host's START_GAME is refused (NOT_HOST): the refusal belongs beside the room's controls.
    assert click_first(driver, "#start")
    wait_for("the refusal beside the room's controls",
             lambda: driver.execute_script("return document.getElementById('room-error').dataset.code") == "NOT_HOST")
    assert not visible(driver, "notice"), f"the refusal also went to the general area: {text_of(driver, 'notice-text')!r}"
    time.sleep(1.0)
    injected = driver.execute_script(f"return document.querySelectorAll({INJECTED!r}).length")
    assert injected == 0, f"{injected} elements were built from hostile names"
    pwned = driver.execute_script("return typeof window.__pwned === 'undefined' ? null : window.__pwned")
    assert pwned is None, f"hostile script ran in the page: window.__pwned = {pwned!r}"
    driver.find_element(By.ID, "leave").click()
    wait_for("the lobby after leaving", lambda: visible(driver, "lobby"))
    assert not text_of(driver, "room-error"), "the refusal outlived the next action in the room"
    print(f"hostile room {room}: name and room name shown as text, colour refused, no element or script from them; "
          f"names and room names isolated, the page's {RTL_NAME!r} before its '(you)'")
    return room


def check_bidi_in_game(driver):
    """At the game's end: the page's right-to-left name is a bidi run of its own on the
    scoreboard, in every event and at the game's end, and the words after it are drawn after it."""
    assert_isolated(driver, "#scores", RTL_NAME, "the scoreboard")
    row = driver.execute_script(
        "return [...document.querySelectorAll('#scores tbody tr')].find((tr) => tr.textContent.includes(arguments[0]))", RTL_NAME)
    assert_drawn_in_order(driver, row.find_elements(By.TAG_NAME, "td")[1], (RTL_NAME, "(you)"), "the scoreboard")
    logged = assert_isolated(driver, "#events", RTL_NAME, "the events")
    assert_isolated(driver, "#game-over", RTL_NAME, "the game's end", required=False)
    assert_isolated(driver, "#announcer", RTL_NAME, "the announcements", required=False)
    # The word after the name in each event: "played.", "(seat 1)", "took", ... Lines that
    # wrapped between the two cannot be compared.
    compared = 0
    for line in driver.find_elements(By.CSS_SELECTOR, "#events li"):
        text = line.get_attribute("textContent")
        after = re.match(r"\s*(\S+)", text.partition(RTL_NAME)[2]) if RTL_NAME in text else None
        if after and assert_drawn_in_order(driver, line, (RTL_NAME, after.group(1)), "the events", may_wrap=True):
            compared += 1
    assert compared, "no event with the page's name fits one line: the bidi order went unchecked"
    print(f"the scoreboard, {logged} events and the game's end show {RTL_NAME!r} isolated; "
          f"{compared} events drawn in reading order")


def check_bidi_in_games_list(driver):
    """The lobby's finished games: the room's name, each player's name and score, drawn in
    reading order. Without isolation the right-to-left names and the digits between them read
    as one right-to-left run, and the page's score is drawn left of its name."""
    assert_isolated(driver, "#my-games", RTL_ROOM, "the finished games")
    assert_isolated(driver, "#my-games", RTL_NAME, "the finished games")
    item = driver.execute_script(
        "return [...document.querySelectorAll('#my-games li')].find((li) => li.textContent.includes(arguments[0]))", RTL_ROOM)
    text = item.get_attribute("textContent")
    score = re.search(re.escape(RTL_NAME) + r" (\d+)", text)
    assert score, f"no score after {RTL_NAME!r} in the finished game {text!r}"
    assert_drawn_in_order(driver, item, (RTL_ROOM, ":", RTL_NAME, score.group(1)), "the finished games")
    print(f"the finished games list {text!r} in reading order, its names isolated")


def check_catalogue(driver, catalogue):
    """The create-room form offers the server's tile sets; the player count follows them."""
    sets = catalogue["tilesets"]
    wait_for("the tile sets from the server",
             lambda: len(driver.find_elements(By.CSS_SELECTOR, "#sets input[name=set]")) == len(sets))
    base = driver.find_element(By.CSS_SELECTOR, '#sets input[value="base"]')
    assert base.is_selected() and not base.is_enabled(), "the base game is not checked and required"

    def most():
        return driver.execute_script(
            "const options = document.querySelectorAll('#max-players option');"
            "return options[options.length - 1].value")

    assert most() == "5", f"up to {most()} players with the base game"
    extra = driver.find_elements(By.CSS_SELECTOR, '#sets input[value="inns_and_cathedrals"]')
    if extra:
        extra[0].click()
        wait_for("six players with Inns & Cathedrals", lambda: most() == "6", 5)
        extra[0].click()
        wait_for("five players again", lambda: most() == "5", 5)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="the carcassonne-server binary")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--reload-after", type=int, default=6, help="turns before the reload")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for the whole game")
    parser.add_argument("--every-set-seed", type=int, default=EVERY_SET_SEED,
                        help="the seed of the second game, of every set and six seats")
    args = parser.parse_args()

    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    server = start_server(args.server, port, "--bot-delay", "0.1", "--figure-grace", "60")
    driver = None
    try:
        wait_listening(server, port)
        with urllib.request.urlopen(base_url + "/") as response:
            policy = response.headers.get("Content-Security-Policy", "")
        for directive in ("default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"):
            assert directive in policy, f"the page's Content-Security-Policy lacks {directive!r}: {policy!r}"
        with urllib.request.urlopen(base_url + "/tilesets") as response:
            catalogue = json.load(response)
        shades = {colour["name"]: colour["shade"] for colour in catalogue["colours"]}
        assert "grey" in shades and "gray" not in shades, sorted(shades)

        driver = headless_chromium(args.chromium, args.chromedriver)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PAGE_PROBES})
        driver.get(base_url + "/")
        wait_for("the lobby", lambda: visible(driver, "lobby"))
        check_catalogue(driver, catalogue)
        hostile_room = check_xss(driver, port)
        problems = csp_problems(driver)
        assert not problems, f"Content-Security-Policy violations: {problems}"

        driver.find_element(By.ID, "room-name").clear()
        driver.execute_script("arguments[0].value = arguments[1]", driver.find_element(By.ID, "room-name"), RTL_ROOM)
        driver.execute_script("document.getElementById('max-players').value = '2'")
        driver.find_element(By.ID, "create").click()
        wait_for("the room", lambda: visible(driver, "room"))
        # The bot is asked for while the connection is down: the request waits and goes out
        # once the page is connected again.
        driver.execute_script("window.__offline = true; window.__sockets[window.__sockets.length - 1].close()")
        wait_for("the page to notice it is offline", lambda: "offline" in text_of(driver, "status"))
        driver.find_element(By.ID, "add-bot").click()
        wait_for("the action to wait", lambda: "1 action waiting" in text_of(driver, "status"), 5)
        assert len(driver.find_elements(By.CSS_SELECTOR, "#members li")) == 1
        driver.execute_script("window.__offline = false")
        wait_for("the bot in the room", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#members li")) == 2)
        print(f"an action taken offline was sent on reconnecting: {text_of(driver, 'status')!r}")
        assert "bot" in driver.find_element(By.ID, "members").text
        # The page hosts this room: its line reads name, "(you)", "host", left to right.
        assert_isolated(driver, "#room-title", RTL_ROOM, "the room's title")
        assert_isolated(driver, "#members", RTL_NAME, "the members list")
        mine = driver.execute_script(
            "return [...document.querySelectorAll('#members li')].find((li) => li.textContent.includes(arguments[0]))", RTL_NAME)
        assert_drawn_in_order(driver, mine, (RTL_NAME, "(you)", "host"), "the members list")
        wait_for("start enabled", lambda: driver.find_element(By.ID, "start").is_enabled())
        driver.find_element(By.ID, "start").click()
        wait_for("the game", lambda: visible(driver, "game"))

        turns, figures, reloaded, by_keyboard, labels_checked = 0, 0, False, False, False
        started = time.monotonic()
        while not visible(driver, "game-over"):
            if time.monotonic() - started > args.timeout:
                raise AssertionError(f"the game did not end in {args.timeout} s; turn text: {driver.find_element(By.ID, 'turn').text!r}")
            if not labels_checked:
                labels = driver.execute_script(
                    "return [...document.querySelectorAll('circle.choice')].map((c) => c.getAttribute('aria-label'))")
                if len(labels) > 1:
                    assert all(labels) and len(set(labels)) == len(labels), f"figure choices named alike: {labels}"
                    labels_checked = True
                    print(f"figure choices: {labels}")
            # Each action is found and clicked inside the page in one step: the page redraws
            # as messages arrive, so an element found first and clicked after may be gone.
            placed = len(driver.find_elements(By.CSS_SELECTOR, "#tiles image"))
            if not by_keyboard and driver.find_elements(By.CSS_SELECTOR, "rect.target"):
                keyboard_turn(driver)
                by_keyboard = True
                turns += 1
            elif click_first(driver, "rect.target:not(.other)"):
                turns += 1
                # Landed when the board holds one more tile. (Waiting for the targets to go
                # missed it when the tile took no figure and the bot answered within one poll:
                # the next turn's targets were already there.)
                wait_for("the placement to land",
                         lambda: len(driver.find_elements(By.CSS_SELECTOR, "#tiles image")) > placed
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
        assert by_keyboard, "no placement was made by keyboard"
        assert "won" in text, text
        assert tiles >= 60, f"only {tiles} tiles drawn"
        assert events > 10
        check_bidi_in_game(driver)

        # Players are told apart by seat numbers as well as colours, and the colours are the
        # server's shades.
        seats = [badge.text for badge in driver.find_elements(By.CSS_SELECTOR, "#scores .badge")]
        assert seats == ["1", "2"], f"seat numbers on the scoreboard: {seats}"
        drawn = driver.execute_script(
            "return [...document.querySelectorAll('#scores .badge')].map((b) => getComputedStyle(b).backgroundColor)")
        known = {rgb(shade) for shade in shades.values()}
        assert all(colour in known for colour in drawn), f"scoreboard colours {drawn} are not the server's shades {known}"
        marks = driver.execute_script("return [...document.querySelectorAll('#figures text.seat-mark')].map((t) => t.textContent)")
        if driver.find_elements(By.CSS_SELECTOR, "#figures .figure"):
            assert marks and set(marks) <= {"1", "2"}, f"figures without seat numbers: {marks}"

        download = driver.find_element(By.ID, "download").get_attribute("href")
        assert re.search(r"/games/[A-Za-z0-9_-]+$", download) and not download.endswith(f"/{hostile_room}"), download
        with urllib.request.urlopen(download) as response:
            saved = json.load(response)
        assert saved, "the finished game downloads empty"

        # The lobby lists the games this player finished; one opens in the review.
        click_first(driver, "#game-over button")
        wait_for("the lobby's list of finished games", lambda: driver.find_elements(By.CSS_SELECTOR, "#my-games button[data-game]"))
        check_bidi_in_games_list(driver)
        click_first(driver, "#my-games button[data-game]")
        wait_for("the review of the game listed", lambda: visible(driver, "review") and text_of(driver, "review-turn").startswith("Turn 1 of"), 30)
        print(f"the lobby listed the finished game; its review opened: {text_of(driver, 'review-turn')!r}")
        driver.find_element(By.ID, "review-close").click()
        wait_for("the lobby after the review", lambda: visible(driver, "lobby"))

        # Then games of every set and six seats until the page has placed each new figure,
        # tended a flock and taken a builder's second turn (one game does all of it more often
        # than not; the bots and the draws decide whether the page gets the chance).
        stem, dot, ext = args.screenshot.rpartition(".")
        every_shot = f"{stem}-every-set.{ext}" if dot else f"{args.screenshot}-every-set"
        placed_all = {figure: 0 for figure in SPECIALS}
        flock_choices, second_turns, logged = 0, 0, []
        for game in range(EVERY_SET_GAMES):
            placed, tended, seconds, shepherds, flocks, log = play_every_set(
                driver, args.every_set_seed + game, args.timeout, every_shot)
            assert flocks == shepherds, f"{shepherds} shepherds on the final board but {flocks} flocks drawn"
            assert "won" in text_of(driver, "game-over")
            for figure, count in placed.items():
                placed_all[figure] += count
            flock_choices, second_turns, logged = flock_choices + tended, second_turns + seconds, logged + log
            if all(placed_all.values()) and flock_choices and second_turns:
                break
        missing = [figure for figure, count in placed_all.items() if count == 0]
        assert not missing, f"in {EVERY_SET_GAMES} games the page never placed {missing}: {placed_all}"
        assert flock_choices > 0, f"in {EVERY_SET_GAMES} games the page never tended a flock"
        assert second_turns > 0, f"in {EVERY_SET_GAMES} games the page never showed its own second turn"
        for words in ("sheep", "second turn", "under it"):
            assert any(words in line for line in logged), f"no event mentions {words!r}"

        pwned = driver.execute_script("return typeof window.__pwned === 'undefined' ? null : window.__pwned")
        assert pwned is None, f"hostile script ran in the page: window.__pwned = {pwned!r}"
        problems = csp_problems(driver)
        assert not problems, f"Content-Security-Policy violations: {problems}"
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
