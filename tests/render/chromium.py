"""What the browser tests share: a headless Chromium (Debian's, driven by Selenium), and
a picture as the browser shows it and as the library draws it, counted by element."""
from __future__ import annotations

import shutil
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
NEEDS = ("the browser test needs Debian's chromium and chromium-driver "
         "(apt-get install chromium chromium-driver; .ci/run installs them)")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,900")


@contextmanager
def headless() -> Iterator[Any]:
    """A headless Chromium with a profile of its own, removed afterwards; a machine
    without it fails the test in one line saying what to install."""
    if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
        pytest.fail(NEEDS, pytrace=False)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="notation-chromium-")
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def shown(driver: Any) -> Counter[str]:
    """The page's picture (``#board``): its elements by tag, class, data attributes and
    text."""
    rows = driver.execute_script(
        "return Array.from(document.querySelectorAll('#board *:not(style)')).map(e =>"
        " [e.localName, e.getAttribute('class') || '',"
        "  e.getAttributeNames().filter(n => n.startsWith('data-')).sort()"
        "   .map(n => n + '=' + e.getAttribute(n)).join(' '),"
        "  ['text', 'title'].includes(e.localName) ? e.textContent : ''].join('|'));")
    return Counter(rows)


def drawn(svg: str) -> Counter[str]:
    """The library's picture counted as :func:`shown` counts the page's."""
    root = ET.fromstring(svg)
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
