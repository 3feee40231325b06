"""Links from requirement ids to their anchors on the spec site, read from the packaged
requirement index (``conformance/requirements.json``, generated from ``spec/``)."""

from __future__ import annotations

from functools import cache

SPEC_SITE = "https://spec.baton.dev/"


@cache
def _pages() -> dict[str, str]:
    """``{requirement id: spec page path}`` (``spec/packet.md``); empty when unavailable."""
    from baton import _fastjson
    from baton._resources import data_dir

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
            page = entry.get("page") or entry.get("file") or entry.get("path")
            if isinstance(page, str):
                pages[entry["id"]] = page
    return pages


def anchor_url(requirement: str) -> str | None:
    """``https://spec.baton.dev/spec/packet/#PKT-004``, or ``None`` for an unknown id."""
    page = _pages().get(requirement)
    if page is None:
        return None
    page = page.replace("\\", "/").removesuffix(".md")
    if page.endswith("/index") or page == "index":
        page = page[: -len("index")]
    elif not page.endswith("/"):
        page += "/"
    return f"{SPEC_SITE}{page}#{requirement}"
