"""The explorer's HTML page in a real browser (Debian's headless Chromium, Selenium).

The page of a small archive is opened from a file (no server, no network); moves are
clicked and the picture in the page is checked against the library's own drawing of the
position the moves lead to; the back and start controls return.
"""
from __future__ import annotations

import shutil
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import notation
from notation.cli.explore import explore

from conftest import DATA, ROOT

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
RECORDS = DATA / "explore" / "transposition.tilewe"
SHOTS = ROOT / "build" / "screenshots"


@pytest.fixture(scope="module")
def chromium():
    """A headless Chromium with a profile of its own, closed after the module."""
    if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
        pytest.fail("the browser test needs Debian's chromium and chromium-driver "
                    "(apt-get install chromium chromium-driver)", pytrace=False)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="notation-explore-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--window-size=1280,900", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def page_of(tmp_path: Path) -> str:
    out = tmp_path / "explore.html"
    result = CliRunner().invoke(explore, ["--html", "-o", str(out), str(RECORDS)])
    assert result.exit_code == 0, result.output
    return out.resolve().as_uri()


def shown(driver) -> Counter:
    """The page's picture: its elements by tag, class, data attributes and text."""
    rows = driver.execute_script(
        "return Array.from(document.querySelectorAll('#board *:not(style)')).map(e =>"
        " [e.localName, e.getAttribute('class') || '',"
        "  e.getAttributeNames().filter(n => n.startsWith('data-')).sort()"
        "   .map(n => n + '=' + e.getAttribute(n)).join(' '),"
        "  ['text', 'title'].includes(e.localName) ? e.textContent : ''].join('|'));")
    return Counter(rows)


def drawn(plies: int) -> Counter:
    """The library's drawing of the first game's position after ``plies`` plies, as
    :func:`shown`: drawn from its notation, as a position of a tree is (reached by several
    move orders, it has no last move to mark)."""
    record = next(iter(notation.load(str(RECORDS))))
    game = notation.get_game("tilewe")
    state = game.read_position(game.full_position(notation.run(record, plies).state))
    root = ET.fromstring(game.svg(state))
    rows = []
    for element in root.iter():
        tag = element.tag.split("}")[-1]
        if element is root or tag == "style":
            continue
        data = " ".join(f"{k}={v}" for k, v in sorted(element.attrib.items())
                        if k.startswith("data-"))
        text = (element.text or "") if tag in ("text", "title") else ""
        rows.append("|".join([tag, element.get("class") or "", data, text]))
    return Counter(rows)


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
