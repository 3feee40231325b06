"""The Python API reference page, generated from the package itself: every name in
``passdown.__all__``, every error in ``passdown.errors.__all__`` and every name in
``passdown.authoring.__all__``, with its signature and docstring, so the page lists exactly the public API and cannot drift from it."""

from __future__ import annotations

import inspect
import re

#: A Sphinx role (``:func:`x```) or a double-backtick literal, written as Markdown code.
_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`|``([^`]+)``")


def render_api_page(package, errors, authoring) -> str:
    """The Markdown page for ``package`` (``passdown``), its errors module and its authoring
    package."""
    out = ["# Python API reference", "", _doc(package), "",
           "```python", "import passdown", "```", "", "## `passdown`", ""]
    for name in package.__all__:
        out += _entry(f"passdown.{name}", getattr(package, name))
    out += ["## `passdown.errors`", "", _doc(errors), "",
            "| error | code | exit status |", "|---|---|---|"]
    out += [f"| `{name}` | `{getattr(errors, name).code}` | {getattr(errors, name).exit_code} |"
            for name in errors.__all__]
    out.append("")
    for name in errors.__all__:
        out += _entry(f"passdown.errors.{name}", getattr(errors, name))
    out += ["## `passdown.authoring`", "", _doc(authoring), ""]
    for name in authoring.__all__:
        out += _entry(f"passdown.authoring.{name}", getattr(authoring, name))
    return "\n".join(out).rstrip() + "\n"


def _entry(qualified: str, value) -> list[str]:
    if qualified == "passdown.__version__":
        return [f"### `{qualified}`", "", f"The installed version, `{value}`.", ""]
    if isinstance(value, str):
        return [f"### `{qualified}`", "", f"The constant `{value!r}`.", ""]
    if isinstance(value, dict):
        return [f"### `{qualified}`", "", "A table keyed by name: "
                + ", ".join(f"`{key}`" for key in value) + ".", ""]
    return [f"### `{qualified}{_signature(value)}`", "", _doc(value) or "(no docstring)", ""]


def _signature(value) -> str:
    if inspect.isclass(value) and issubclass(value, BaseException):
        return ""
    try:
        return str(inspect.signature(value))
    except (TypeError, ValueError):
        return ""


def _doc(value) -> str:
    text = inspect.cleandoc(value.__doc__ or "")
    return _ROLE.sub(lambda match: f"`{match.group(1) or match.group(2)}`", text)
