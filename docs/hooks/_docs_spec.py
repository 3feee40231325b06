"""The spec pages on the site: which pages there are, their order, and requirement anchors.

The pages stay in ``spec/`` (their single source); this module only reads them. A list item
that opens with a bold requirement id (``- **PKT-004** The packet MUST ...``) gets an anchor
``#PKT-004`` whose link is the requirement's permalink.
"""

from __future__ import annotations

import re
from pathlib import Path

# The prefixes in the order CONTRIBUTING.md lists them: the spec reads from the overview,
# through the artifacts, to the gates, conformance and authoring.
PREFIX_ORDER = (
    "GEN", "VER", "INP", "CKP", "PKT", "REG", "ACK", "DIG", "HND",
    "RST", "TTL", "REC", "RLN", "LCY", "GRD", "CNF", "AUT", "PRC", "HST",
)

_REQUIREMENT_ITEM = re.compile(
    r"^(?P<lead>[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\*\*(?P<id>[A-Z]{2,5}-\d{3,4})\*\*"
)
_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
_INDEX_NAMES = ("index.md", "README.md")


def requirement_ids(markdown: str) -> list[str]:
    """The requirement ids defined by the list items of a spec page, in page order."""
    return [match["id"] for line in _outside_fences(markdown) if (match := _REQUIREMENT_ITEM.match(line))]


def requirement_items(markdown: str) -> list[tuple[str, str]]:
    """Each requirement of a page as ``(id, text)``: the list item's text after its id, with
    its continuation lines, as one line of Markdown."""
    lines = markdown.split("\n")
    unfenced = set(_unfenced_line_numbers(lines))
    items = []
    for number in sorted(unfenced):
        match = _REQUIREMENT_ITEM.match(lines[number])
        if not match:
            continue
        text = [lines[number][match.end():].strip()]
        indent = len(match["lead"])
        for follow in range(number + 1, len(lines)):
            line = lines[follow]
            if follow not in unfenced or not line.strip() or len(line) - len(line.lstrip()) < indent:
                break
            text.append(line.strip())
        items.append((match["id"], " ".join(text)))
    return items


def anchor_requirements(markdown: str) -> str:
    """Turn each ``**PFX-NNN**`` that opens a list item into a self-link with that id.

    The id in lowercase is an anchor too (``#pkt-004``): the requirement catalogue and the
    links in findings use that form.
    """
    lines = markdown.split("\n")
    for number in _unfenced_line_numbers(lines):
        lines[number] = _REQUIREMENT_ITEM.sub(
            lambda m: (f"{m['lead']}<span id=\"{m['id'].lower()}\"></span>"
                       f"[**{m['id']}**](#{m['id']}){{ #{m['id']} .passdown-req }}"),
            lines[number],
            count=1,
        )
    return "\n".join(lines)


def spec_pages(spec_dir: Path) -> list[Path]:
    """Every Markdown page under ``spec/``, in reading order (paths relative to ``spec_dir``).

    A folder's index page comes first; the other pages follow the order of the prefix of the
    first requirement they define, then their file name.
    """
    if not spec_dir.is_dir():
        return []
    pages = [path.relative_to(spec_dir) for path in sorted(spec_dir.rglob("*.md"))]
    return sorted(pages, key=lambda page: _reading_key(spec_dir, page))


def page_title(path: Path) -> str | None:
    """The text of the page's first level-one heading, if it has one."""
    for line in _outside_fences(path.read_text(encoding="utf-8")):
        if line.startswith("# "):
            return line[2:].strip()
    return None


def _reading_key(spec_dir: Path, page: Path):
    is_index = page.name in _INDEX_NAMES
    ids = [] if is_index else requirement_ids((spec_dir / page).read_text(encoding="utf-8"))
    prefix = ids[0].split("-")[0] if ids else None
    rank = PREFIX_ORDER.index(prefix) if prefix in PREFIX_ORDER else len(PREFIX_ORDER)
    return (page.parent.parts, not is_index, rank, page.name)


def _outside_fences(markdown: str):
    lines = markdown.split("\n")
    return (lines[number] for number in _unfenced_line_numbers(lines))


def _unfenced_line_numbers(lines: list[str]):
    fence = None
    for number, line in enumerate(lines):
        match = _FENCE.match(line)
        if fence is None:
            if match:
                fence = match["fence"]
                continue
            yield number
        elif match and match["fence"][0] == fence[0] and len(match["fence"]) >= len(fence) \
                and not line.strip()[len(match["fence"]):].strip():
            fence = None
