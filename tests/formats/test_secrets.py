"""The hint gate of the secret detector only skips scans that could not match: the answer is
the same as running every pattern on every text."""

from hypothesis import given, settings
from hypothesis import strategies as st

from passdown.formats import _secrets

FRAGMENTS = [
    "ghp_" + "a" * 36, "github_pat_" + "b" * 30, "xoxb-" + "1" * 12,
    "sk-" + "c" * 24, "AKIA" + "Z" * 16, "eyJhbGciOi.eyJzdWIiOi.sig", "Bearer abcdefghij0123456789",
    "Cookie: sid=abc", "password=hunter2hunter2", "API_KEY: 'abcdef123456'",
    "-----BEGIN RSA PRIVATE KEY-----", "PRIVATE_KEY=xyzxyzxyz", "GHP_" + "A" * 36, "İ", "ß", " ", "\n",
]


def _unguarded(text):
    found = []
    for label, _hints, pattern in _secrets._PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(s.start < end and start < s.end for s in found):
                continue
            found.append(_secrets.Secret(label, start, end, text.count("\n", 0, start) + 1))
    return sorted(found, key=lambda s: s.start)


@settings(max_examples=300)
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=12), max_size=8).map("".join))
def test_the_hints_never_hide_a_match(text):
    assert _secrets.find_secrets(text) == _unguarded(text)


def test_every_shape_is_found_through_its_hint():
    for fragment in FRAGMENTS[:12]:
        assert _secrets.find_secrets(f"note: {fragment} end"), fragment


@settings(max_examples=300)
@given(st.lists(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=12), max_size=5).map("".join),
                max_size=6))
def test_one_scan_over_many_texts_finds_what_each_text_finds_alone(texts):
    alone = [(index, secret.label, secret.end - secret.start)
             for index, text in enumerate(texts) for secret in _secrets.find_secrets(text)]
    together = [(index, secret.label, secret.end - secret.start)
                for index, secret in _secrets.find_secrets_in_each(texts)]
    assert together == alone


#: Every spelling the password shape reads (its hints are the short parts these share).
PASSWORD_SPELLINGS = [
    f"{word}{joint}{tail}" if tail else word
    for word, tail in (("password", ""), ("passwd", ""), ("pwd", ""), ("passphrase", ""),
                       ("api", "key"), ("secret", "key"), ("client", "secret"),
                       ("access", "token"), ("auth", "token"), ("private", "key"))
    for joint in ("_", "-", "")
]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(PASSWORD_SPELLINGS) | st.sampled_from(["=", ": ", "='", "x", "K"])
                | st.sampled_from(["hunter2hunter2", "REDACTED", "\n", "İ", "\u212a"])
                | st.text(max_size=8), max_size=8).map("".join))
def test_the_password_hints_never_hide_a_spelling(text):
    assert _secrets.find_secrets(text) == _unguarded(text)
    assert _secrets.find_secrets(text.upper()) == _unguarded(text.upper())


def test_every_password_spelling_is_found():
    for spelling in PASSWORD_SPELLINGS:
        found = _secrets.find_secrets(f"note: {spelling.upper()}=hunter2hunter2 end")
        assert [secret.label for secret in found] == ["a password assignment"], spelling
