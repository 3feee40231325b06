"""Links from requirement ids to their anchors on the spec site, read from the packaged
requirement index (``conformance/requirements.json``, generated from ``spec/``)."""

from __future__ import annotations

from functools import cache

SPEC_SITE = "https://spec.passdown.dev/"


@cache
def _pages() -> dict[str, tuple[str, str]]:
    """``{requirement id: (spec page path, anchor)}``; empty when unavailable."""
    from passdown.formats import _fastjson
    from passdown._resources import data_dir

    try:
        index = _fastjson.loads((data_dir("conformance") / "requirements.json").read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    entries = index.get("requirements", index) if isinstance(index, dict) else index
    if isinstance(entries, dict):
        entries = [{"id": key, **value} if isinstance(value, dict) else {"id": key}
                   for key, value in entries.items()]
    pages = {}
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            page, anchor = entry.get("page"), entry.get("anchor") or entry["id"]
            if isinstance(page, str) and isinstance(anchor, str):
                pages[entry["id"]] = (page, anchor)
    return pages


def anchor_url(requirement: str) -> str | None:
    """``https://spec.passdown.dev/spec/packet/#pkt-004`` (the anchor the catalogue gives), or
    ``None`` for an id the catalogue does not hold."""
    entry = _pages().get(requirement)
    if entry is None:
        return None
    page, anchor = entry
    page = page.replace("\\", "/").removesuffix(".md")
    if page.endswith("/index") or page == "index":
        page = page[: -len("index")]
    elif not page.endswith("/"):
        page += "/"
    return f"{SPEC_SITE}{page}#{anchor}"
