"""A run comparing the reference, the Python adapter and the Node.js adapter (the Python one
answering wrong) in one command: the comparison in every format, and the HTML report in a
real browser: headless Chromium opens the self-contained page from the file, shows the
summary table and a failure's differences, filters by gate and status, and its screenshot is
not blank."""

from __future__ import annotations

import json
import os
import shutil
import sys

import pytest
from click.testing import CliRunner

from passdown.cli import cli
from browser_support import png_colours, running_chromium, wait
from docs_support import ROOT

pytestmark = pytest.mark.slow

ADAPTERS = ROOT / "conformance" / "adapters"
WRONG_CASE = "restart.assessment.horizon_capped"


@pytest.fixture(scope="module")
def report_page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("html-report")
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    wrong_python = f"env PASSDOWN_ADAPTER_FAULT=wrong {sys.executable} {ADAPTERS / 'python' / 'passdown_adapter.py'}"
    result = CliRunner().invoke(cli, [
        "conformance", "run", "--reference", "--harness", f"python={wrong_python}",
        "--harness", f"node={node} {ADAPTERS / 'node' / 'adapter.mjs'}",
        "--html", str(folder / "report.html"), "--jsonl", str(folder / "run.jsonl"), "--format", "json"])
    document = json.loads(result.output)
    assert [r["name"] for r in document["reports"]] == ["reference", "python", "node"]
    statuses = next(c["statuses"] for c in document["cases"] if c["id"] == WRONG_CASE)
    assert statuses == {"reference": "passed", "python": "failed", "node": "passed"}
    return folder / "report.html"


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with running_chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


def test_the_page_loads_nothing(report_page):
    page = report_page.read_text(encoding="utf-8")
    for fetching in ("<link", "src=", "@import", "url(", "fetch(", "XMLHttpRequest"):
        assert fetching not in page


def test_the_summary_and_a_failure_s_differences_are_shown(browser, report_page, tmp_path):
    from selenium.webdriver.common.by import By

    browser.get(report_page.as_uri())
    summary = browser.find_element(By.ID, "summary-table")
    assert summary.is_displayed()
    rows = [row.text.split()[0] for row in summary.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert rows == ["reference", "python", "node"]
    detail = browser.find_element(By.CSS_SELECTOR, f"tr.case[id='case-{WRONG_CASE}'] + tr.detail .diff")
    browser.execute_script("arguments[0].scrollIntoView()", detail)
    assert detail.is_displayed()
    cells = [cell.text for cell in detail.find_elements(By.CSS_SELECTOR, "table.differences td")]
    assert cells[:3] == ["$.assessment.estimated_net_tokens_saved", "185000", "640000"]
    assert "$.assessment.horizon_calls" in cells
    browser.execute_script("window.scrollTo(0, 0)")
    screenshot = tmp_path / "report.png"
    browser.save_screenshot(str(screenshot))
    assert screenshot.stat().st_size > 10_000 and png_colours(screenshot) > 64


def _visible_rows(driver):
    """(gate, text) of each case row the page shows, read in one call: asking the driver row by
    row costs a round trip for each of the suite's thousands of rows."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#case-table > tbody > tr.case'))"
        ".filter(row => row.getClientRects().length > 0)"
        ".map(row => [row.getAttribute('data-gate'), row.innerText]);")


def test_filters_by_status_and_gate(browser, report_page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(report_page.as_uri())
    shown = browser.find_element(By.ID, "shown-count")
    total = int(shown.text.split()[0])
    assert total > 1000 and len(_visible_rows(browser)) == total
    Select(browser.find_element(By.ID, "filter-status")).select_by_value("failed")
    wait(browser).until(lambda driver: shown.text != f"{total} cases shown")
    failed = _visible_rows(browser)
    assert 0 < len(failed) < 20 and int(shown.text.split()[0]) == len(failed)
    assert all("failed" in text for _, text in failed)
    Select(browser.find_element(By.ID, "filter-gate")).select_by_value("title")
    wait(browser).until(lambda driver: all(gate == "title" for gate, _ in _visible_rows(driver)))
    Select(browser.find_element(By.ID, "filter-status")).select_by_value("")
    Select(browser.find_element(By.ID, "filter-gate")).select_by_value("ack")
    visible = _visible_rows(browser)
    # the ACK check: the reference and the Node adapter implement it, the Python adapter does not
    assert visible and all(gate == "ack" and text.split()[-3:] == ["passed", "skipped", "passed"]
                           for gate, text in visible)


def test_the_comparison_is_in_every_format(report_page):
    from xml.etree import ElementTree

    stream = str(report_page.parent / "run.jsonl")

    def rendered(output_format):
        result = CliRunner().invoke(cli, ["conformance", "report", stream, "--format", output_format])
        assert result.exit_code == 0
        return result.output

    text = rendered("text").splitlines()
    assert text[0] == "passdown conformance: 3 implementations compared"
    row = next(line for line in text if line.startswith(WRONG_CASE))
    assert row.split() == [WRONG_CASE, "passed", "failed", "passed"]
    assert "  $.assessment.horizon_calls: expected 3, got 10" in text
    markdown = rendered("markdown")
    assert "| gate | version | reference | python | node |" in markdown
    assert f"| `{WRONG_CASE}` | passed | failed | passed |" in markdown
    suites = ElementTree.fromstring(rendered("junit")).findall("testsuite")
    assert {suite.get("name").split(".")[0] for suite in suites} == {"reference", "python", "node"}
    badge = json.loads(rendered("badge"))
    # each implementation's part names the profiles it conforms to; a part below 100% says so
    assert badge["message"].split(" | ") == [
        "reference core + handoff + recovery + relaunch + lifecycle + guard + observe + python-helper-compat",
        "python python-helper-compat, 94% passing", "node core + recovery + observe + python-helper-compat"]
    assert badge["color"] != "brightgreen"
    assert json.loads(rendered("json"))["kind"] == "conformance_comparison"
    assert rendered("html") == report_page.read_text(encoding="utf-8")
    assert os.path.getsize(report_page) < 5_000_000
