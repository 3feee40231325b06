"""Semantic rules of the ACK artifact's shape (spec/ack.md): a takeover readback names the
target as owner; source and target differ; the
dirty-artifact fingerprint names each relative path once; digests, timestamps and the spec
version. Checking an ACK against a fresh readback of packet, registry and checkout is the
ACK gate's work, not these rules'.
"""

from __future__ import annotations

from passdown.formats._values import is_relative_path
from passdown.rules import Artifact, Hit, rule
from passdown.rules._shared import (
    blank,
    register_digest_rules,
    register_timestamp_rule,
    register_version_rules,
    repeated,
    top_level_version,
)

KIND = "ack"

register_version_rules(KIND, top_level_version)
register_timestamp_rule(KIND)


def _dirty(artifact):
    entries = artifact.fields.get("dirty_artifacts")
    if isinstance(entries, list):
        for index, entry in enumerate(entries):
            if isinstance(entry, dict):
                yield index, entry


def _digests(artifact: Artifact):
    data = artifact.fields
    if "checkpoint_digest" in data:
        yield ("checkpoint_digest",), data["checkpoint_digest"], None
    for index, entry in _dirty(artifact):
        if "digest" in entry:
            yield ("dirty_artifacts", index, "digest"), entry["digest"], None


register_digest_rules(KIND, _digests)


@rule(KIND, "ack.same_source_target", requirement="ACK-005",
      summary="the source and the target are different sessions",
      hint="the ACK comes from the fresh target session: write its own id as target_id")
def _same(artifact: Artifact):
    data = artifact.fields
    source, target = data.get("source_id"), data.get("target_id")
    if isinstance(source, str) and not blank(source) and source == target:
        yield Hit(("target_id",), "target_id is the source session itself")


@rule(KIND, "ack.takeover_owner", requirement="ACK-011",
      summary="the takeover readback names the target as owner",
      hint="a takeover is reported only when the ownership record names the target itself")
def _takeover_owner(artifact: Artifact):
    data = artifact.fields
    takeover = data.get("takeover")
    owner = takeover.get("owner_id") if isinstance(takeover, dict) else None
    if isinstance(owner, str) and owner != data.get("target_id"):
        yield Hit(("takeover", "owner_id"), "the ownership record names another owner than the target")


@rule(KIND, "ack.path_form", requirement="ACK-008",
      summary="dirty paths are relative to the checkout root, with `/` separators and no `..`",
      hint="write the path as git prints it, e.g. src/app/main.py")
def _path_form(artifact: Artifact):
    for index, entry in _dirty(artifact):
        path = entry.get("path")
        if not isinstance(path, str):
            continue
        if not is_relative_path(path):
            yield Hit(("dirty_artifacts", index, "path"),
                      "the path is not a clean path relative to the checkout root")


@rule(KIND, "ack.duplicate_path", requirement="ACK-012",
      summary="each dirty path is listed once",
      hint="list every dirty path once, with the digest of its current content")
def _duplicate_path(artifact: Artifact):
    for index, _, first in repeated(_dirty(artifact), "path"):
        yield Hit(("dirty_artifacts", index, "path"),
                  f"the path is already listed at dirty_artifacts[{first}]")
