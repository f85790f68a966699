"""The HTML replay in a real browser: headless Chromium (the system's, driven by Playwright) opens
a Bouncer and a Boss Poker replay's page (`play --save`, then `replay FILE.replay --html`), steps 20 moves forward and back by the buttons, the arrow keys,
the slider, the step box and the log, switches seat views, and at every stop checks the cards on
screen, zone by zone, against the engine's view of that seat at that step; a page written with
`--view P1` shows P1's view alone and names no card P1 never knew.  Nothing is fetched.

It takes a screenshot, replay.png (CARDGAME_ARTIFACTS names the folder to keep it in;
docs/images/replay.png is one). Skipped, with the reason, without Chromium (`apt-get install
chromium`) or Playwright (`pip install -e '.[browser]'`); .ci/run installs both, and where it found
Chromium sets CARDGAME_BROWSER_TEST=required, which makes a missing Playwright an error, not a skip.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from cardgame import interpreter
from cardgame.repl.cli import main
from helpers import GAMES, cards_never_known, engine_zones, names_in, page_data, play_out

REQUIRED = os.environ.get("CARDGAME_BROWSER_TEST") == "required"  # CI's, where it installed Chromium
if REQUIRED:
    from playwright import sync_api  # no skip: CI installed both, so a missing one is an error
else:
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser test needs Playwright: "
                                   "pip install -e '.[browser]'")
CHROMIUM = (os.environ.get("CARDGAME_CHROMIUM") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
            or shutil.which("chromium") or shutil.which("chromium-browser"))
pytestmark = pytest.mark.skipif(CHROMIUM is None and not REQUIRED, reason="the browser test needs Chromium: "
                                "apt-get install chromium (or CARDGAME_CHROMIUM naming one)")
# Headless, and nothing of Chromium's own reaching out (this machine's network refuses it).
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BOUNCER = str(GAMES / "bouncer.cardgame")
BOSSPOKER = str(GAMES / "bosspoker.cardgame")
STEPS = 20

ON_SCREEN = """root => [...root.querySelectorAll('.cg-zone')].map(z => [z.dataset.zone, z.dataset.seat,
    [...z.querySelectorAll('.cg-card:not(.cg-back)')].map(c => c.dataset.card),
    [...z.querySelectorAll('.cg-back')].reduce((n, b) => n + Number(b.dataset.hidden), 0)])"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport={"width": 1400, "height": 1000})
        yield context
        context.close()


class Page:
    """One replay page open in the browser, with what it fetched and any script error kept."""

    def __init__(self, browser, path: str):
        self.page = browser.new_page()
        self.requests, self.errors = [], []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.url = Path(path).resolve().as_uri()
        self.page.goto(self.url)
        self.page.wait_for_selector(".cg-viewer[data-ready]")

    def where(self) -> tuple[int, str]:
        root = self.page.locator(".cg-viewer")
        return int(root.get_attribute("data-pos")), root.get_attribute("data-view")

    def zones(self) -> dict:
        return {(name, seat or None): (sorted(cards), hidden)
                for name, seat, cards, hidden in self.page.eval_on_selector(".cg-viewer", ON_SCREEN)}

    def close(self):
        assert self.errors == []
        assert self.requests == [self.url]  # the page alone: no script, style or card face fetched
        self.page.close()


def game_of(path: str, seed: int, tmp_path, *flags):
    """Play a game with `cardgame play --save` and write its replay's page with `cardgame replay
    FILE.replay --html` (and `flags`); the page's path, and the engine's states at every step of
    the game, made again from its moves."""
    saved = str(tmp_path / f"{Path(path).stem}-{seed}.replay")
    out = str(tmp_path / f"{Path(path).stem}{''.join(flags)}.html")
    assert main(["play", path, "--seed", str(seed), "--save", saved]) == 0
    assert main(["replay", saved, "--script", path, "--html", out, *flags]) == 0
    game = interpreter.load(path)
    state = play_out(game.new_game(seed=seed), interpreter.RandomAgent.for_game(seed), 10_000)
    states = [game.new_game(seed=seed)]
    for move in state.history:
        states.append(states[-1].clone())
        states[-1].apply(move)
    return out, game, states


def seat_name(viewer) -> str:
    return "all" if viewer == "all" else "spectator" if viewer is None else f"P{viewer}"


def shows(page: Page, states, viewer, pos: int) -> None:
    """The page stands at `pos` in `viewer`'s view, and its cards are the engine's view there."""
    assert page.where() == (pos, seat_name(viewer))
    assert page.zones() == engine_zones(states[pos].view(viewer))


def step_through(page: Page, states, viewer) -> None:
    """20 steps forward and back (buttons and keys in turn), then the slider, the box and the log."""
    page.page.click(f'.cg-views button[data-view="{seat_name(viewer)}"]')
    shows(page, states, viewer, 0)
    for pos in range(1, STEPS + 1):
        page.page.keyboard.press("ArrowRight") if pos % 2 else page.page.click('[data-go="next"]')
        shows(page, states, viewer, pos)
    for pos in range(STEPS - 1, -1, -1):
        page.page.keyboard.press("ArrowLeft") if pos % 2 else page.page.click('[data-go="back"]')
        shows(page, states, viewer, pos)
    page.page.fill(".cg-slider", "15")
    shows(page, states, viewer, 15)
    page.page.fill(".cg-jump", "7")
    page.page.press(".cg-jump", "Tab")
    shows(page, states, viewer, 7)
    page.page.click('.cg-log-list li[data-pos="3"]')
    shows(page, states, viewer, 3)
    page.page.keyboard.press("End")
    shows(page, states, viewer, len(states) - 1)
    page.page.keyboard.press("Home")
    shows(page, states, viewer, 0)


def test_a_bouncer_page_shows_each_seat_what_the_engine_says_it_saw(browser, tmp_path):
    out, _game, states = game_of(BOUNCER, 3, tmp_path)
    assert len(states) > STEPS + 1
    page = Page(browser, out)
    assert page.where() == (0, "all")  # a full record opens on the all-seeing view
    for viewer in (1, 0, None, "all"):
        step_through(page, states, viewer)
    page.page.click('.cg-views button[data-view="P1"]')
    page.page.keyboard.press("PageDown")
    shows(page, states, 1, 10)
    for pos in range(10, 16):  # a move of P1's own is explained; another seat's is not P1's to judge
        actor = states[pos - 1].current_player
        why = page.page.inner_text(".cg-why")
        assert ("rule follow_suit" in why) if actor == 1 else ("Not judged in this view" in why)
        page.page.keyboard.press("ArrowRight")
    own = max(pos for pos in range(10, 16) if states[pos - 1].current_player == 1)
    page.page.click(f'.cg-log-list li[data-pos="{own}"]')  # P1's own move, its why open
    artifacts = Path(os.environ.get("CARDGAME_ARTIFACTS") or tmp_path)
    artifacts.mkdir(parents=True, exist_ok=True)
    page.page.screenshot(path=str(artifacts / "replay.png"), full_page=True)
    page.close()


def test_a_boss_poker_page_shows_simultaneous_commits_only_once_revealed(browser, tmp_path):
    out, _game, states = game_of(BOSSPOKER, 1, tmp_path)
    assert len(states) > STEPS + 1
    page = Page(browser, out)
    for viewer in (0, 1, None, "all"):
        step_through(page, states, viewer)
    page.page.click('.cg-views button[data-view="P1"]')
    log = page.page.inner_text(".cg-log")
    assert "(a hidden choice)" in log  # P0's commit, as P1 saw it
    page.close()


def test_a_page_written_for_p1_shows_p1s_view_alone_and_names_no_card_p1_never_knew(browser, tmp_path):
    out, game, states = game_of(BOSSPOKER, 2, tmp_path, "--view", "P1")
    text = open(out, encoding="utf-8").read()
    never = cards_never_known(game, states[0].n, 2, states[-1].history, 1)
    assert len(never) > 5  # folded number cards and the box: what the check looks for
    assert names_in(text + json.dumps(page_data(text), ensure_ascii=False), never) == []
    page = Page(browser, out)
    assert page.page.locator(".cg-views button").all_inner_texts() == ["P1"]
    assert "What P1 knew, and nothing else" in page.page.inner_text(".cg-record")
    for pos in range(len(states)):
        shows(page, states, 1, pos)
        assert names_in(page.page.inner_text(".cg-viewer"), never) == []
        page.page.keyboard.press("ArrowRight")
    page.close()
