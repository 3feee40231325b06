"""The docs site builds with ``mkdocs build --strict`` and holds every page it promises.

Every spec page (with an anchor per requirement id), every schema (served at its ``$id`` and
with a reference page naming each of its fields) and the CLI reference; and no page loads a
script, style or font from the network.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import click
import pytest

from docs_support import (
    ROOT, SITE_URL, build_site, built_site, load_schema, property_names, requirement_ids, schema_files,
    schema_page_html, shared_build, spec_page_html, spec_pages,
)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    return built_site(tmp_path_factory)


def _h1(page: Path) -> str:
    match = re.search(r"<h1[^>]*>(.*?)</h1>", page.read_text(encoding="utf-8"), re.DOTALL)
    assert match, f"{page} has no <h1>"
    without_permalink = re.sub(r'<a class="headerlink".*?</a>', "", match.group(1))
    return html.unescape(re.sub(r"<[^>]+>", "", without_permalink)).strip()


def test_the_build_is_clean_in_strict_mode(tmp_path_factory):
    site_dir, result = shared_build(tmp_path_factory)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    assert (site_dir / "index.html").is_file()


def test_a_broken_link_fails_the_build(tmp_path):
    # The site's own configuration and guides, without the spec and schema pages (the
    # links to them fail too, but the build is the cheaper for it): the broken link added
    # to a guide must be among the warnings that fail it.
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "docs", copy / "docs")
    for name in ("mkdocs.yml", ".pre-commit-hooks.yaml"):
        shutil.copy(ROOT / name, copy / name)
    guide = copy / "docs" / "guides" / "verify-an-ack.md"
    guide.write_text(guide.read_text(encoding="utf-8") + "\n[gone](no-such-page.md)\n", encoding="utf-8")
    result = build_site(tmp_path / "site", root=copy)
    assert result.returncode == 1
    assert re.search(r"WARNING.*no-such-page\.md", result.stderr), result.stderr


def test_the_spec_has_pages_to_show():
    assert spec_pages(), "spec/ holds no pages"


def test_every_spec_page_is_on_the_site_with_its_title(site):
    for page in spec_pages():
        built = spec_page_html(site, page)
        assert built.is_file(), f"{page.relative_to(ROOT)} is missing from the site"
        heading = next(line[2:].strip() for line in page.read_text(encoding="utf-8").splitlines()
                       if line.startswith("# "))
        assert _h1(built) == re.sub(r"[`*]", "", heading)


def test_every_spec_page_and_guide_is_in_the_nav(site):
    links = set(re.findall(r'<a\b[^>]*\bhref="([^"#]*)"[^>]*\bclass="md-nav__link',
                           (site / "index.html").read_text(encoding="utf-8")))
    pages = [*spec_pages(), *sorted((ROOT / "docs" / "guides").glob("*.md"))]
    missing = []
    for page in pages:
        if page.is_relative_to(ROOT / "spec"):
            built = spec_page_html(site, page)
        else:
            relative = page.relative_to(ROOT / "docs").with_suffix("")
            built = site / (relative.parent if relative.name == "index" else relative) / "index.html"
        url = built.parent.relative_to(site).as_posix() + "/"
        if url not in links:
            missing.append(url)
    assert not missing, f"not in the nav: {missing}"


def test_the_guides_come_before_the_spec_and_the_schemas_in_the_nav(site):
    home = (site / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a\b[^>]*\bhref="([^"#]*)"[^>]*\bclass="md-nav__link', home)
    first = {kind: next(i for i, link in enumerate(links) if link.startswith(prefix))
             for kind, prefix in (("guides", "guides/"), ("spec", "spec/"),
                                  ("schemas", "reference/schemas/"))}
    assert first["guides"] < first["spec"] and first["guides"] < first["schemas"], first


def test_every_requirement_id_is_an_anchor_that_links_to_itself(site):
    total = 0
    for page in spec_pages():
        text = spec_page_html(site, page).read_text(encoding="utf-8")
        for requirement in requirement_ids(page):
            total += 1
            anchor = re.search(rf'<a\b[^>]*\bid="{requirement}"[^>]*>', text)
            assert anchor, f"{requirement} has no anchor on the page of {page.name}"
            assert f'href="#{requirement}"' in anchor.group(0)
            assert f'id="{requirement.lower()}"' in text, f"{requirement} has no lowercase anchor"
    assert total, "the spec defines no requirement ids"


def test_the_requirements_page_has_a_heading_per_id_that_links_to_its_page(site):
    text = (site / "requirements" / "index.html").read_text(encoding="utf-8")
    for page in spec_pages():
        target = "../" + spec_page_html(site, page).parent.relative_to(site).as_posix() + "/"
        for requirement in requirement_ids(page):
            assert re.search(rf'<h3 id="{requirement}"', text), requirement
            assert f'href="{target}#{requirement}"' in text, requirement


def test_every_link_of_the_requirement_catalogue_lands_on_its_requirement(site):
    catalogue = ROOT / "conformance" / "requirements.json"
    assert catalogue.is_file(), "conformance/requirements.json is missing"
    entries = json.loads(catalogue.read_text(encoding="utf-8"))
    entries = entries.get("requirements", entries) if isinstance(entries, dict) else entries
    assert entries, "the requirement catalogue is empty"
    for entry in entries:
        page = ROOT / entry["page"]
        built = spec_page_html(site, page).read_text(encoding="utf-8")
        assert f'id="{entry["anchor"]}"' in built, f"{entry['id']}: #{entry['anchor']} not on {entry['page']}"


def test_the_schemas_have_pages_to_show():
    assert schema_files(), "schemas/v1/ holds no schemas"


def test_every_schema_is_served_at_the_path_of_its_id(site):
    for path in schema_files():
        schema_id = load_schema(path)["$id"]
        assert schema_id.startswith(SITE_URL), schema_id
        served = site / schema_id[len(SITE_URL):]
        assert served.is_file(), f"{schema_id} is not served"
        assert served.read_bytes() == path.read_bytes()


def test_every_schema_has_a_reference_page_naming_each_field(site):
    index = (site / "reference" / "schemas" / "index.html").read_text(encoding="utf-8")
    for path in schema_files():
        schema = load_schema(path)
        page = schema_page_html(site, path)
        assert page.is_file(), f"no reference page for {path.name}"
        assert _h1(page) == schema.get("title", path.name)
        text = page.read_text(encoding="utf-8")
        for name in property_names(schema):
            assert f"<code>{html.escape(name, quote=False)}</code>" in text, f"{path.name}: {name}"
        for name in schema.get("$defs", {}):
            assert f'id="def-{name}"' in text, f"{path.name}: $defs/{name}"
        assert load_schema(path)["$id"].removeprefix(SITE_URL) in index


def test_the_cli_page_documents_every_command_and_option(site):
    from passdown.cli import cli

    text = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    seen = 0

    def visit(command, context):
        nonlocal seen
        seen += 1
        assert f"<code>{context.command_path}</code>" in text, context.command_path
        for param in command.get_params(context):
            if isinstance(param, click.Option) and not param.hidden:
                for name in param.opts:
                    assert f"<code>{name}</code>" in text, f"{context.command_path} {name}"
        if isinstance(command, click.Group):
            for name in command.list_commands(context):
                sub = command.get_command(context, name)
                if sub is not None and not sub.hidden:
                    visit(sub, click.Context(sub, info_name=name, parent=context))

    visit(cli, click.Context(cli, info_name="passdown"))
    assert seen > 1, "the CLI page was built from a command with no subcommands"


class _Loads(HTMLParser):
    """Collects the URLs a page loads: scripts, styles, fonts, images, frames."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link":
            rel = (attrs.get("rel") or "").lower().split()
            if rel and set(rel) & {"stylesheet", "preload", "preconnect", "modulepreload",
                                   "dns-prefetch", "prefetch", "icon", "manifest"}:
                self.urls.append(attrs.get("href") or "")
        elif tag in ("script", "img", "iframe", "source", "audio", "video", "embed"):
            self.urls.append(attrs.get("src") or "")
        elif tag == "style":
            self._in_style = True
        if attrs.get("style"):
            self.urls += _css_urls(attrs["style"])

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.urls += _css_urls(data)


def _css_urls(css: str) -> list[str]:
    return re.findall(r"""url\(\s*['"]?([^'")\s]+)""", css) + re.findall(r"""@import\s+['"]([^'"]+)""", css)


def _remote(url: str) -> bool:
    return bool(re.match(r"^\s*(https?:)?//", url, re.IGNORECASE))


def test_no_page_loads_anything_from_the_network(site):
    remote = []
    for page in site.rglob("*.html"):
        parser = _Loads()
        parser.feed(page.read_text(encoding="utf-8"))
        remote += [f"{page.relative_to(site)}: {url}" for url in parser.urls if _remote(url)]
    for sheet in site.rglob("*.css"):
        remote += [f"{sheet.relative_to(site)}: {url}" for url in _css_urls(sheet.read_text(encoding="utf-8"))
                   if _remote(url)]
    assert not remote, "\n".join(remote)
    assert list(site.rglob("*.html")), "the site has no pages"


def test_the_network_check_catches_a_web_font():
    parser = _Loads()
    parser.feed('<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>'
                '<style>@import "//fonts.example/a.css"; body{background:url(https://x.example/b.png)}</style>'
                '<script src="assets/local.js"></script>')
    assert [url for url in parser.urls if _remote(url)] == [
        "https://fonts.gstatic.com", "https://x.example/b.png", "//fonts.example/a.css"]


def test_the_search_index_holds_every_requirement_id_on_its_page(site):
    documents = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    for page in spec_pages():
        location = spec_page_html(site, page).parent.relative_to(site).as_posix() + "/"
        text = " ".join(doc["text"] for doc in documents if doc["location"].split("#")[0] == location)
        for requirement in requirement_ids(page):
            assert requirement in text, f"{requirement} is not in the search index of {location}"


def _page_text(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def test_the_guides_show_their_examples_and_no_snippet_marker_is_left(site):
    guides = {page: _page_text(page) for page in (site / "guides").rglob("index.html")}
    assert all("--8<--" not in text for text in guides.values())
    for script in sorted((ROOT / "docs" / "examples").glob("*.sh")):
        sections = re.findall(r"# --8<-- \[start:([\w-]+)\]\n(.*?)# --8<-- \[end:\1\]",
                              script.read_text(encoding="utf-8"), re.DOTALL)
        assert sections, script.name
        for name, body in sections:
            line = next(line.strip() for line in body.splitlines()
                        if line.strip() and not line.lstrip().startswith("#"))
            assert any(line in text for text in guides.values()), f"{script.name}:{name} is not shown"
