"""Shared by the browser tests: headless Chromium driven through selenium, with the Debian
packages ``chromium`` and ``chromium-driver``, and a check that a screenshot shows something."""

from __future__ import annotations

import struct
import zlib
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
BROWSER_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1280,900",
)
WAIT_SECONDS = 20


def chromium(profile_dir: Path):
    """A started headless Chromium (the caller quits it); skips the test when it is not
    installed."""
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.is_file()]
    if missing:
        pytest.skip(f"headless Chromium is not installed ({', '.join(missing)} missing): "
                    "apt-get install -y chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in BROWSER_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile_dir}")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    driver.set_page_load_timeout(WAIT_SECONDS)
    return driver


@contextmanager
def running_chromium(profile_dir: Path):
    """:func:`chromium`, quit on the way out (for a fixture: ``with ... as driver: yield driver``)."""
    driver = chromium(profile_dir)
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_SECONDS)


def png_colours(path: Path) -> int:
    """How many distinct byte values the pixel rows of a PNG hold: a blank page gives a
    handful, a rendered one hundreds. Read with the standard library only."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    chunks, offset = [], 8
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if kind == b"IDAT":
            chunks.append(data[offset + 8:offset + 8 + length])
        offset += 12 + length
    return len(set(zlib.decompress(b"".join(chunks))))
