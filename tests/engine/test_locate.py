"""JSON paths to lines, in JSON and YAML text."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from passdown.engine._locate import lines_for

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(alphabet=st.characters(codec="utf-8"), max_size=6), children, max_size=4),
    max_leaves=25,
)


def _layout(value):
    """Where ``json.dumps(value, indent=1)`` puts each path: one line per member or item,
    one per closing bracket of a non-empty container."""
    lines, line = {}, [1]

    def visit(node, path):
        lines[path] = line[0]
        children = (node.items() if isinstance(node, dict)
                    else enumerate(node) if isinstance(node, list) else ())
        children = list(children)
        for key, child in children:
            line[0] += 1
            visit(child, path + (key,))
        if children:
            line[0] += 1

    visit(value, ())
    return lines


@given(values, st.booleans())
def test_every_path_of_a_json_document_has_its_line(value, ascii_only):
    text = json.dumps(value, indent=1, ensure_ascii=ascii_only)
    expected = _layout(value)
    assert lines_for(text, "json", expected) == expected


def test_tricky_json():
    text = ('{"a\\"b": {"x": "},{[:"},\n'
            ' "list": [\n   [],\n   {},\n   [1,\n    2]],\n'
            ' "\\u00e9": null}')
    found = lines_for(text, "json", [("a\"b", "x"), ("list", 2, 1), ("list", 1), ("é",),
                                     ("list", 0, 5), ("missing", "deeper")])
    assert found == {("a\"b", "x"): 1, ("list", 2, 1): 6, ("list", 1): 4, ("é",): 7,
                     ("list", 0, 5): 3, ("missing", "deeper"): 1}


def test_yaml_paths():
    text = ("kind: registry\n"
            "rows:\n"
            "  - id: one\n"
            "    tags: [a, b]\n"
            "  - {id: two,\n"
            "     note: x}\n"
            "base: &base\n"
            "  k: 1\n"
            "copy: *base\n")
    found = lines_for(text, "yaml", [("rows", 0, "tags", 1), ("rows", 1, "note"), ("rows", 1),
                                     ("copy", "k"), ("rows", 0, "nope"), ("kind",)])
    assert found == {("rows", 0, "tags", 1): 4, ("rows", 1, "note"): 6, ("rows", 1): 5,
                     ("copy", "k"): 8, ("rows", 0, "nope"): 3, ("kind",): 1}


def test_text_and_broken_documents_have_no_lines():
    assert lines_for("GOAL_ID: x\n", "text", [("goal_id",)]) == {}
    assert lines_for("key: [unclosed", "yaml", [("key",)]) == {}
