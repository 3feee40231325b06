"""The built docs site works in a real browser: pages render, and search finds requirement ids.

The site is built, served on 127.0.0.1 by a thread of ``http.server``, and driven by headless
Chromium through selenium, with the Debian packages ``chromium`` and ``chromium-driver``.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from browser_support import running_chromium, wait
from docs_support import (
    ROOT, built_site, load_schema, requirement_ids, schema_files, schema_page_url, spec_pages,
)

pytestmark = pytest.mark.slow


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="module")
def served_site(tmp_path_factory):
    site_dir = built_site(tmp_path_factory)
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site_dir)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with running_chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


_wait = wait


def _heading(driver) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, "article h1").text.strip()


def _spec_page_with_requirements() -> tuple[Path, list[str]]:
    for page in spec_pages():
        ids = requirement_ids(page)
        if ids:
            return page, ids
    pytest.fail("the spec defines no requirement ids")


def test_the_home_page_renders_with_its_heading(browser, served_site, tmp_path):
    browser.get(served_site)
    assert _heading(browser) == "Passdown"
    assert "Passdown" in browser.title
    browser.save_screenshot(str(tmp_path / "home.png"))
    assert (tmp_path / "home.png").stat().st_size > 0


def test_a_spec_page_renders_with_its_headings_and_requirement_anchors(browser, served_site, tmp_path):
    from selenium.webdriver.common.by import By

    page, ids = _spec_page_with_requirements()
    title = next(line[2:].strip() for line in page.read_text(encoding="utf-8").splitlines()
                 if line.startswith("# "))
    browser.get(f"{served_site}spec/{page.relative_to(ROOT / 'spec').with_suffix('').as_posix()}/#{ids[-1]}")
    assert _heading(browser) == re.sub(r"[`*]", "", title)
    anchor = browser.find_element(By.ID, ids[-1])
    assert anchor.text == ids[-1]
    assert anchor.get_attribute("href").endswith(f"#{ids[-1]}")
    assert anchor.is_displayed()
    sections = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "article h2") if h.text]
    assert sections, "the spec page shows no sections"
    browser.save_screenshot(str(tmp_path / "spec.png"))


def test_a_schema_page_renders_with_its_fields(browser, served_site, tmp_path):
    from selenium.webdriver.common.by import By

    path = schema_files()[0]
    schema = load_schema(path)
    browser.get(served_site + schema_page_url(path))
    assert _heading(browser) == schema["title"]
    cells = {cell.text for cell in browser.find_elements(By.CSS_SELECTOR, "article table td code")}
    assert set(schema.get("properties", {})) <= cells
    browser.save_screenshot(str(tmp_path / "schema.png"))


def test_the_schema_file_is_served_at_its_id_path(browser, served_site):
    path = schema_files()[0]
    schema_id = load_schema(path)["$id"]
    browser.get(served_site + schema_id.removeprefix("https://spec.passdown.dev/"))
    assert schema_id in browser.page_source


def test_search_finds_a_requirement_id_and_leads_to_it(browser, served_site, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as seen

    page, ids = _spec_page_with_requirements()
    wanted = ids[len(ids) // 2]
    location = f"/spec/{page.relative_to(ROOT / 'spec').with_suffix('').as_posix()}/"
    browser.get(served_site)
    box = _wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, "input.md-search__input")))
    box.click()
    box.send_keys(wanted)

    def exact_hits(driver):
        return [link for link in driver.find_elements(By.CSS_SELECTOR, ".md-search-result__link")
                if (link.get_attribute("href") or "").endswith(f"#{wanted}")]

    _wait(browser).until(exact_hits)
    meta = browser.find_element(By.CSS_SELECTOR, ".md-search-result__meta").text
    assert re.match(r"\d+ matching documents?$", meta), meta
    # Results are grouped by page, the page itself first: the first section is the best hit.
    links = browser.find_elements(By.CSS_SELECTOR, ".md-search-result__link")
    first = next(link for link in links if "#" in (link.get_attribute("href") or ""))
    assert first.get_attribute("href").endswith(f"#{wanted}"), "the requirement is not the best result"
    assert first.text.startswith(wanted)
    browser.save_screenshot(str(tmp_path / "search.png"))

    first.click()
    _wait(browser).until(lambda driver: urlsplit(driver.current_url).path.endswith("/requirements/")
                         and urlsplit(driver.current_url).fragment == wanted)
    browser.find_element(By.CSS_SELECTOR, f"a[href$='{location.lstrip('/').split('/', 1)[1]}#{wanted}']").click()
    _wait(browser).until(lambda driver: driver.current_url.endswith(f"{location}#{wanted}"))
    assert browser.find_element(By.ID, wanted).is_displayed()


def _overflowing_output_blocks(driver) -> list[str]:
    """The first characters of every output block (```text) wider than its box."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('article .language-text pre > code'))"
        ".filter(code => code.scrollWidth > code.clientWidth + 1)"
        ".map(code => code.textContent.slice(0, 60));")


def test_output_blocks_need_no_horizontal_scrolling_at_1280_pixels(browser, served_site):
    browser.set_window_size(1280, 900)
    pages = ["", "reference/cli/", *(f"guides/{p.stem}/".replace("guides/index/", "guides/")
                                     for p in sorted((ROOT / "docs" / "guides").glob("*.md"))),
             *(f"spec/{p.relative_to(ROOT / 'spec').with_suffix('').as_posix()}/"
               .replace("spec/index/", "spec/") for p in spec_pages())]
    wide, blocks = {}, 0
    for page in pages:
        browser.get(served_site + page)
        blocks += browser.execute_script(
            "return document.querySelectorAll('article .language-text pre > code').length")
        found = _overflowing_output_blocks(browser)
        if found:
            wide[page] = found
    assert blocks > 20, "the pages show hardly any output blocks: is the class still there?"
    assert wide == {}
