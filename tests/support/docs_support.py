"""Shared by the docs tests: building the site, and reading the repository's sources."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
SCHEMAS = ROOT / "schemas" / "v1"
SITE_URL = "https://spec.passdown.dev/"

# Written here independently of the build hook, so the tests check the hook, not themselves.
REQUIREMENT_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\*\*([A-Z]{2,5}-\d{3,4})\*\*", re.MULTILINE)


def build_site(site_dir: Path, root: Path = ROOT) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of the repository's site into ``site_dir``.

    Never with ``--quiet``: it silences warnings, and strict mode only counts what it sees.
    """
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict",
         "--config-file", str(root / "mkdocs.yml"), "--site-dir", str(site_dir)],
        cwd=root, env=env, capture_output=True, text=True, timeout=600,
    )


_BUILDS: dict[int, tuple[Path, subprocess.CompletedProcess]] = {}


def shared_build(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """The one ``mkdocs build --strict`` of a test session, shared by every docs test module.

    A strict build that meets a warning still writes the whole site before it fails, so the
    tests that inspect pages use it too; only the strict-build test fails on the warning.
    """
    key = id(tmp_path_factory)
    if key not in _BUILDS:
        site_dir = tmp_path_factory.mktemp("site")
        _BUILDS[key] = (site_dir, build_site(site_dir))
    return _BUILDS[key]


def built_site(tmp_path_factory) -> Path:
    """The shared build's site folder; fails with mkdocs' output when no site was written."""
    site_dir, result = shared_build(tmp_path_factory)
    if not (site_dir / "index.html").is_file():
        raise AssertionError(f"mkdocs build wrote no site:\n{result.stdout}\n{result.stderr}")
    return site_dir


def spec_pages() -> list[Path]:
    return sorted(SPEC.rglob("*.md")) if SPEC.is_dir() else []


def spec_page_html(site: Path, page: Path) -> Path:
    """Where a spec page lands in the built site (directory URLs)."""
    relative = page.relative_to(ROOT).with_suffix("")
    if relative.name in ("index", "README"):
        return site / relative.parent / "index.html"
    return site / relative / "index.html"


def requirement_ids(page: Path) -> list[str]:
    text = re.sub(r"^(```|~~~).*?^\1", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    return REQUIREMENT_ITEM.findall(text)


# Each folder of schemas and where the site puts their generated pages.
SCHEMA_SETS = ((SCHEMAS, "reference/schemas"), (ROOT / "conformance", "reference/conformance"))


def schema_files() -> list[Path]:
    """Every schema the site documents: the artifacts' first, then the conformance suite's."""
    return [path for folder, _ in SCHEMA_SETS if folder.is_dir() for path in sorted(folder.rglob("*.schema.json"))]


def schema_page_url(path: Path) -> str:
    """The site path of a schema's reference page (``reference/schemas/ack/``)."""
    for folder, pages in SCHEMA_SETS:
        if path.is_relative_to(folder):
            return f"{pages}/{path.relative_to(folder).as_posix().removesuffix('.schema.json')}/"
    raise ValueError(f"{path} is in no schema folder")


def load_schema(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def schema_page_html(site: Path, path: Path) -> Path:
    return site / schema_page_url(path) / "index.html"


def property_names(schema) -> set[str]:
    """Every property name anywhere in a schema (nested objects, items, variants, $defs)."""
    found = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key in ("properties", "patternProperties") and isinstance(value, dict):
                if key == "properties":
                    found.update(value)
                for sub in value.values():
                    found |= property_names(sub)
            elif key not in ("const", "enum", "default", "examples"):
                found |= property_names(value)
    elif isinstance(schema, list):
        for item in schema:
            found |= property_names(item)
    return found
