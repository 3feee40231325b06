"""Cross-file rules of a handoff folder (kind ``"crossfile"``): the ids agree across the
checkpoint, the packet, the registry and the ACK; the packet's CHECKPOINT_DIGEST, the
registry attempt's digest and the digest recomputed from the packet are one; the continue
checkpoint is the one the attempt registered; and the ACK matches (spec/digest.md,
"Cross-file rules"; spec/ack.md, "Verifying an ACK").

One name for these checks: the rule kind ``crossfile``, this module, the value they read
(:class:`passdown.rules.Crossfile`) and the code prefix ``crossfile.*``. The ACK rules run here
keep their ``ack.*`` codes, which are the ack gate's (spec/ack.md) and public; the folder
rules of the procedure (``crossfile.checkpoint_*``) are registered in
:mod:`passdown.rules.procedure` under the same kind.

The ACK is verified here without a workspace or a clock: the checkout and dirty-artifact
fingerprints and the read time against now are compared by ``passdown ack verify`` only.
"""

from __future__ import annotations

from passdown.formats import _ackcheck, _digest
from passdown.rules import Hit, rule

KIND = "crossfile"


def _artifacts(folder):
    found = folder.artifacts
    return found.get("checkpoint"), found.get("packet"), found.get("registry"), found.get("ack")


def _packet_fields(folder):
    """``(text, parsed)`` of the folder's packet (read once per folder), or ``(None, None)``."""
    return folder.derived("packet", _read_packet)


def _canonical_packet(folder):
    """The packet's canonical bytes, computed once per folder (two rules recompute digests)."""
    return folder.derived("canonical_packet", lambda f: _digest.canonical_packet(_packet_fields(f)[0]))


def _read_packet(folder):
    from passdown.formats import _packet

    packet = folder.artifacts.get("packet")
    if packet is None:
        return None, None
    text = _digest.packet_text(packet.text, packet.file)
    return text, _packet.parse(text)


def _line_of(parsed, key):
    field = parsed.first(key)
    return field.line if field is not None else None


def _block(checkpoint):
    data = checkpoint.data if checkpoint is not None else None
    block = data.get("x-passdown/checkpoint") if isinstance(data, dict) else None
    return block if isinstance(block, dict) else {}


def _attempt(registry, restart_id):
    """``(index, attempt)`` of the single attempt with ``restart_id``, else ``(None, None)``."""
    attempts = registry.data.get("attempts") if isinstance(registry.data, dict) else None
    if not isinstance(attempts, list):
        return None, None
    found = [(i, a) for i, a in enumerate(attempts)
             if isinstance(a, dict) and a.get("restart_id") == restart_id]
    return found[0] if len(found) == 1 else (None, None)


@rule(KIND, "crossfile.goal_mismatch", requirement="DIG-050",
      summary="the checkpoint, the packet and the registry name one goal",
      hint="a handoff folder serves one goal: fix the artifact that names another")
def _goal_mismatch(folder):
    checkpoint, packet, registry, _ = _artifacts(folder)
    named = []
    if checkpoint is not None and _block(checkpoint):  # a plain one: checkpoint_plain says so
        named.append((("checkpoint", "x-passdown/checkpoint", "goal_id"), "the checkpoint",
                      _block(checkpoint).get("goal_id"), None))
    if packet is not None:
        _, parsed = _packet_fields(folder)
        named.append((("packet", "goal_id"), "the packet's GOAL_ID", parsed.values().get("GOAL_ID"),
                      _line_of(parsed, "GOAL_ID")))
    if registry is not None and isinstance(registry.data, dict):
        policy = registry.data.get("policy")
        named.append((("registry", "policy", "goal_id"), "the registry policy",
                      policy.get("goal_id") if isinstance(policy, dict) else None, None))
    if len(named) < 2:
        return
    first_path, first_label, first_goal, _ = named[0]
    for path, label, goal, line in named[1:]:
        if goal != first_goal:
            yield Hit(path, f"{label} names goal {goal!r}, {first_label} names {first_goal!r}",
                      line=line)


@rule(KIND, "crossfile.no_registry", requirement="DIG-059",
      summary="a packet has its registry beside it",
      hint="the registry holds the attempt the packet names: restore it, or rebuild it from the "
           "packet and the checkpoint with `passdown registry recover`")
def _no_registry(folder):
    _, packet, registry, _ = _artifacts(folder)
    if packet is not None and registry is None:
        _, parsed = _packet_fields(folder)
        yield Hit(("packet", "restart_id"),
                  f"the folder holds a packet for attempt {parsed.values().get('RESTART_ID')!r} but "
                  "no readable registry, so nothing confirms the attempt or its digest",
                  line=_line_of(parsed, "RESTART_ID"))


@rule(KIND, "crossfile.checkpoint_plain", requirement="CKP-027",
      summary="a checkpoint the restart machinery uses carries the Passdown block",
      hint="run `passdown init --outcome TEXT --goal-id ID --main-id ID` in the handoff "
           "folder: it adds the x-passdown/checkpoint block, keeps every item and creates the "
           "registry; the packet's attempt is not in that registry, so render a new packet "
           "(`passdown packet render`) before handing over")
def _checkpoint_plain(folder):
    checkpoint, packet, registry, _ = _artifacts(folder)
    if checkpoint is None or not isinstance(checkpoint.data, dict) \
            or "x-passdown/checkpoint" in checkpoint.data:
        return
    info = checkpoint.data.get("xBRIEFInfo")
    if not isinstance(info, dict) or info.get("version") != "0.8":
        return  # a legacy checkpoint: its own warning says to migrate it
    beside = [name for name, found in (("a packet", packet), ("a registry", registry)) if found]
    if beside:
        yield Hit(("checkpoint", "x-passdown/checkpoint"),
                  f"the checkpoint is a plain xBRIEF continue checkpoint, but {' and '.join(beside)} "
                  f"beside it {'use' if len(beside) > 1 else 'uses'} the restart machinery, which "
                  "reads the session identity from its x-passdown/checkpoint block",
                  hint=_ADOPT_BESIDE_REGISTRY if registry is not None else None)


#: The way out when the registry is there (CKP-034): one command, the registry kept.
_ADOPT_BESIDE_REGISTRY = (
    "run `passdown init --outcome TEXT` in the handoff folder (TEXT: what must be delivered and "
    "how it is checked): it adds the x-passdown/checkpoint block with the goal, the session and "
    "the fencing epoch the registry records, keeps every item, and leaves the registry as it is")


@rule(KIND, "crossfile.unknown_attempt", requirement="DIG-051",
      summary="the packet's RESTART_ID names one attempt in the registry",
      hint="register the attempt before transport (`passdown packet`), or fix the RESTART_ID")
def _unknown_attempt(folder):
    _, parsed, _, attempt = _packet_attempt(folder)
    if parsed is not None and attempt is None:
        restart_id = parsed.values().get("RESTART_ID")
        yield Hit(("packet", "restart_id"),
                  f"the registry holds no single attempt with restart id {restart_id!r}",
                  line=_line_of(parsed, "RESTART_ID"))


def _packet_attempt(folder):
    """``(text, parsed, index, attempt)``: the packet and the registry attempt its RESTART_ID
    names (``index`` and ``attempt`` None when no single one does); all four None without a
    packet and a registry."""
    _, packet, registry, _ = _artifacts(folder)
    if packet is None or registry is None:
        return None, None, None, None
    text, parsed = _packet_fields(folder)
    return (text, parsed, *_attempt(registry, parsed.values().get("RESTART_ID")))


def _recomputed_problem(stated, canonical, subject="packet"):
    """What is wrong with ``stated`` as the digest of ``canonical`` (the ``subject``'s
    canonical bytes), or None when it is right."""
    problem = _digest.check_digest(stated, canonical)
    return {None: None,
            "digest.mismatch": f"{stated} is not the digest of the {subject} as it is now",
            "digest.unknown_algorithm": f"{stated} uses an algorithm Passdown cannot verify",
            "digest.malformed": f"{stated!r} is not a digest string"}[problem]


@rule(KIND, "crossfile.packet_digest", requirement="DIG-052",
      summary="the packet's CHECKPOINT_DIGEST is the digest of its canonical bytes",
      hint="recompute it with `passdown digest continuation.packet.txt`; a changed packet needs "
           "a new restart attempt")
def _packet_digest(folder):
    _, packet, _, _ = _artifacts(folder)
    if packet is None:
        return
    _, parsed = _packet_fields(folder)
    stated = parsed.values().get("CHECKPOINT_DIGEST")
    if stated is None:
        return  # a missing field is the packet rules' finding
    message = _recomputed_problem(stated, _canonical_packet(folder))
    if message:
        yield Hit(("packet", "checkpoint_digest"), f"CHECKPOINT_DIGEST {message}",
                  line=_line_of(parsed, "CHECKPOINT_DIGEST"))


@rule(KIND, "crossfile.registry_digest", requirement="DIG-053",
      summary="the attempt's registered digest is the digest of the packet",
      hint="the packet changed after its attempt was registered: register a new attempt "
           "for the changed packet")
def _registry_digest(folder):
    _, _, index, attempt = _packet_attempt(folder)
    if attempt is None:
        return
    message = _recomputed_problem(attempt.get("checkpoint_digest"), _canonical_packet(folder))
    if message:
        yield Hit(("registry", "attempts", index, "checkpoint_digest"),
                  f"the attempt's checkpoint_digest {message}")


@rule(KIND, "crossfile.checkpoint_changed", requirement="DIG-054",
      summary="the continue checkpoint is the one the attempt registered",
      hint="the checkpoint changed after the attempt was registered: render a new packet and "
           "register a new attempt")
def _checkpoint_changed(folder):
    checkpoint = _artifacts(folder)[0]
    _, _, index, attempt = _packet_attempt(folder)
    stated = attempt.get(_ackcheck.CONTINUE_DIGEST) if attempt is not None else None
    if checkpoint is None or stated is None or _settled(attempt):
        return
    try:
        canonical = checkpoint.derived("canonical", lambda artifact: _digest.canonical_json(artifact.data))
    except _digest.DigestError as error:
        yield Hit(("checkpoint",), f"the checkpoint cannot be hashed: {error.message}")
        return
    message = _recomputed_problem(stated, canonical, "checkpoint")
    if message:
        yield Hit(("registry", "attempts", index, _ackcheck.CONTINUE_DIGEST),
                  f"the attempt's {_ackcheck.CONTINUE_DIGEST} {message}")


#: Attempt states from the ownership commit on (and an abandoned attempt): the checkpoint is
#: then the new owner's to write and to consume, and the ACK has done its work.
_SETTLED_STATES = ("committed", "taken_over", "completed", "abandoned")


def _settled(attempt) -> bool:
    return isinstance(attempt, dict) and attempt.get("state") in _SETTLED_STATES


# -- the ACK ------------------------------------------------------------------------------

def _ack_verdict(folder):
    """The ACK's verdict for this folder, computed once for all the ACK rules below."""
    return folder.derived("ack_verdict", _verify_ack)


def _verify_ack(folder):
    checkpoint, packet, registry, ack = _artifacts(folder)
    if ack is None or packet is None or registry is None \
            or _settled(_packet_attempt(folder)[3]):
        return None
    text, _ = _packet_fields(folder)
    return _ackcheck.verify(ack.data, text, registry.data,
                            checkpoint=checkpoint.data if checkpoint is not None else None)


def _ack_rule(code, requirement, summary, hint):
    def check(folder):
        verdict = _ack_verdict(folder)
        if verdict is None or verdict.outcome == _ackcheck.UNUSABLE:
            return
        for failure in verdict.failures:
            # The packet-side and registry-side digests have their own rules above.
            if failure.code == code and failure.field.startswith("ack."):
                yield Hit(tuple(failure.field.split(".")), failure.message)

    check.__name__ = f"_{code.replace('.', '_')}"
    rule(KIND, code, requirement=requirement, summary=summary, hint=hint)(check)


for _code, _requirement, _summary, _hint in _ackcheck.RULES:
    if _code in _ackcheck.FOLDER_CODES:
        _ack_rule(_code, _requirement, _summary, _hint)
