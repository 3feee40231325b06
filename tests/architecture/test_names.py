"""One name per concept: every kind a rule is registered for, and every artifact kind, is
snake_case (one separator, ``_``); the cross-file checks are one name throughout."""

from __future__ import annotations

import re

from passdown.formats import _detect
from passdown.rules import Crossfile, all_rules, crossfile

SNAKE = re.compile(r"[a-z]+(?:_[a-z]+)*\Z")


def test_every_kind_name_is_snake_case():
    kinds = {rule.kind for rule in all_rules()} | set(_detect.kind_names())
    assert kinds >= {"checkpoint", "handoff_pending", "crossfile"}
    assert [kind for kind in sorted(kinds) if not SNAKE.match(kind)] == []


def test_the_cross_file_checks_have_one_name():
    assert crossfile.KIND == Crossfile.kind == "crossfile"
    codes = {rule.code.split(".")[0] for rule in all_rules() if rule.kind == "crossfile"}
    # the ACK rules run on a folder keep the ack gate's public codes (spec/ack.md)
    assert codes == {"crossfile", "ack"}
