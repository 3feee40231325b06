"""``passdown schema list|show|path``: the JSON Schemas packaged with this installation."""

from __future__ import annotations

import click

from passdown.cli._options import fail


def _find(name: str):
    from passdown.errors import UsageError
    from passdown.engine._schemas import SchemaMissing, store

    try:
        return store().find(name)
    except SchemaMissing:
        fail(UsageError(f"no packaged schema is called {name!r}",
                        hint=f"use one of: {', '.join(store().files())}"))


@click.group("schema")
def schema():
    """List, show or locate the packaged JSON Schemas (never fetched: these are the files
    Passdown validates with)."""


@schema.command("list")
@click.option("--format", "output_format", type=click.Choice(("text", "json")), default="text",
              show_default=True, help="Output format.")
def list_(output_format):
    """Every packaged schema: its name, $id and title."""
    from passdown.formats import _fastjson
    from passdown.engine._schemas import store

    files = store().files().values()
    if output_format == "json":
        rows = [{"name": f.name, "id": f.id, "title": f.title, "path": str(f.path)} for f in files]
        click.echo(_fastjson.dumps(rows))
        return
    width = max((len(f.name) for f in files), default=0)
    for f in files:
        click.echo(f"{f.name:<{width}}  {f.id}" + (f"  {f.title}" if f.title else ""))


@schema.command("show")
@click.argument("name")
def show(name):
    """Print the schema NAME (a name from `passdown schema list`, a file name or a $id)."""
    click.echo(_find(name).path.read_text(encoding="utf-8"), nl=False)


@schema.command("path")
@click.argument("name")
def path(name):
    """Print the file path of the schema NAME."""
    click.echo(str(_find(name).path))
