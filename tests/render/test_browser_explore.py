"""The explorer's HTML page in a real browser (Debian's headless Chromium, Selenium).

The page of a small archive is opened from a file (no server, no network); moves are
clicked and the picture in the page is checked against the library's own drawing of the
position the moves lead to; the back and start controls return.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import notation
from notation.cli.explore import explore

from chromium import drawn as drawn_svg
from chromium import headless, shown
from conftest import DATA, ROOT

pytestmark = pytest.mark.browser

RECORDS = DATA / "explore" / "transposition.tilewe"
SHOTS = ROOT / "build" / "screenshots"


@pytest.fixture(scope="module")
def chromium():
    with headless() as driver:
        yield driver


def page_of(tmp_path: Path) -> str:
    out = tmp_path / "explore.html"
    result = CliRunner().invoke(explore, ["--html", "-o", str(out), str(RECORDS)])
    assert result.exit_code == 0, result.output
    return out.resolve().as_uri()


def drawn(plies: int) -> Counter:
    """The library's drawing of the first game's position after ``plies`` plies, as
    :func:`shown`: drawn from its notation, as a position of a tree is (reached by several
    move orders, it has no last move to mark)."""
    record = next(iter(notation.load(str(RECORDS))))
    game = notation.get_game("tilewe")
    state = game.read_position(game.full_position(notation.run(record, plies).state))
    return drawn_svg(game.svg(state))


def click_move(driver, text: str) -> None:
    from selenium.webdriver.common.by import By
    (button,) = [b for b in driver.find_elements(By.CSS_SELECTOR, "#moves button.move")
                 if b.text == text]
    button.click()


def test_clicking_moves_draws_their_positions_and_back_returns(chromium, tmp_path):
    from selenium.webdriver.common.by import By
    chromium.get(page_of(tmp_path))
    start = shown(chromium)
    assert start == drawn(0)
    click_move(chromium, "P5w-a1a1")
    after_one = shown(chromium)
    assert after_one == drawn(1) and after_one != start
    click_move(chromium, "Z5nf-c3t20")
    assert shown(chromium) == drawn(2)
    assert chromium.find_element(By.ID, "path").text == "start P5w-a1a1 Z5nf-c3t20"
    moves = [b.text for b in chromium.find_elements(By.CSS_SELECTOR, "#moves button.move")]
    assert moves == ["I3n-a1c3", "O1n-a1d2"]
    chromium.find_element(By.ID, "back").click()
    assert shown(chromium) == drawn(1)
    for text in ("Z5nf-c3t20", "I3n-a1c3", "U5e-b3q17", "O1n-a1d2"):
        click_move(chromium, text)
    assert shown(chromium) == drawn(5)
    assert "2 games" in chromium.find_element(By.ID, "summary").text  # the orders meet
    SHOTS.mkdir(parents=True, exist_ok=True)
    chromium.save_screenshot(str(SHOTS / "explore.png"))
    chromium.find_element(By.ID, "root").click()
    assert shown(chromium) == start
    assert chromium.find_element(By.ID, "back").get_attribute("disabled") is not None
