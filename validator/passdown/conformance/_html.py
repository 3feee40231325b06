"""The HTML report: one self-contained page (its style and script inline; it loads nothing,
and links only to issue pages an implementation named). It shows the summary of every
implementation, each gate's verdicts side by side, and every case with each implementation's
verdict, filtered by gate and status in the browser; under a case that did not pass, each
failure's differences (JSON path, expected, got), its printed-text diff and its stderr, and
each skip's reason and issue."""

from __future__ import annotations

from html import escape

from passdown.conformance._reports import (
    focus_lines, gate_cell, gates_of, profile_summary, shown_profile_rows, skip_reasons, verdict_words, versions_line,
)
from passdown.conformance._runner import ERRORED, FAILED, SKIPPED_STATUS, STATUSES, XFAILED

_STYLE = """
:root { color-scheme: light dark; --pass: #1a7f37; --fail: #cf222e; --err: #9a6700; --skip: #6e7781;
        --xfail: #8250df; --line: #d0d7de; --soft: rgba(127,127,127,.08); }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1200px;
       padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--soft); } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--soft); padding: .5rem; overflow-x: auto; white-space: pre-wrap; margin: .3rem 0; }
.verdict { font-weight: 600; } .verdict.ok { color: var(--pass); } .verdict.bad { color: var(--fail); }
.status { font-weight: 600; white-space: nowrap; }
.passed { color: var(--pass); } .failed { color: var(--fail); } .errored { color: var(--err); }
.skipped { color: var(--skip); } .xfailed { color: var(--xfail); }
.desc { color: var(--skip); font-size: 13px; }
.filters { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; margin: .5rem 0; }
.diff { border-left: 3px solid var(--fail); padding: .2rem .7rem; margin: .4rem 0; }
.diff.errored { border-color: var(--err); } .diff.xfailed { border-color: var(--xfail); }
.diff h4 { margin: .2rem 0; font-size: 14px; }
table.differences td, table.differences th { font: 13px ui-monospace, monospace; }
tr.detail > td { background: var(--soft); }
.hidden { display: none; }
"""

_SCRIPT = """
(function () {
  var gate = document.getElementById("filter-gate");
  var status = document.getElementById("filter-status");
  var shown = document.getElementById("shown-count");
  function apply() {
    var count = 0;
    document.querySelectorAll("#case-table > tbody > tr").forEach(function (row) {
      var statuses = row.getAttribute("data-statuses").split(" ");
      var visible = (!gate.value || row.getAttribute("data-gate") === gate.value)
        && (!status.value || statuses.indexOf(status.value) >= 0);
      row.classList.toggle("hidden", !visible);
      if (visible && row.classList.contains("case")) { count += 1; }
    });
    shown.textContent = count + " cases shown";
  }
  gate.addEventListener("change", apply);
  status.addEventListener("change", apply);
  apply();
})();
"""


def _safe(text: str) -> str:
    """Escaped text; a lone surrogate shown as its escape."""
    return escape(str(text).encode("utf-8", "backslashreplace").decode("utf-8"), quote=True)


def _link(url: str, label: str = "issue") -> str:
    """A link to an issue page an implementation named; only http(s) links are made links."""
    if url.lower().startswith(("https://", "http://")):
        return f'<a href="{_safe(url)}" rel="noreferrer noopener">{_safe(label)}</a>'
    return _safe(url)


def _summary(view) -> list[str]:
    columns = (*(s for s in STATUSES), "total")
    out = ['<table id="summary-table"><thead><tr><th>name</th><th>implementation</th><th>gates implemented</th>',
           *(f'<th class="num">{c}</th>' for c in columns), "</tr></thead><tbody>"]
    for entry in view.entries:
        counts = entry.counts()
        counts["total"] = len(entry.results)
        note = f'<div class="desc failed">{_safe(entry.error)}</div>' if entry.error else ""
        out.append(f"<tr><td><strong>{_safe(entry.name)}</strong></td><td>{_safe(entry.title)}{note}</td>"
                   f"<td>{_safe(versions_line(entry))}</td>"
                   + "".join(f'<td class="num {c if c in STATUSES and counts[c] else ""}">{counts[c]}</td>'
                             for c in columns) + "</tr>")
    out.append("</tbody></table>")
    return out


def _gates(view) -> list[str]:
    gates = view.suite.get("gates", {})
    names = gates_of(view)
    out = ['<table id="gate-table"><thead><tr><th>gate</th><th>version</th>',
           *(f"<th>{_safe(e.name)}</th>" for e in view.entries), "</tr></thead><tbody>"]
    for gate in names:
        cells = "".join(f"<td>{_safe(gate_cell(e.counts(e.by_gate().get(gate, []))))}</td>" for e in view.entries)
        out.append(f"<tr><td>{_safe(gate)}</td><td>{_safe(gates.get(gate, '?'))}</td>{cells}</tr>")
    out.append("</tbody></table>")
    return out


def _detail(name: str, outcome) -> str:
    """One implementation's failure (or skip) on a case: what happened and how it differs."""
    parts = [f'<div class="diff {outcome.status}"><h4>{_safe(name)}: <span class="{outcome.status}">'
             f"{outcome.status}</span>"]
    if outcome.expected_failure:
        parts.append(f" (expected failure: {_safe(outcome.expected_failure)})")
    parts.append("</h4>")
    if outcome.message:
        parts.append(f"<p>{_safe(outcome.message)}</p>")
    if outcome.differences:
        parts.append('<table class="differences"><thead><tr><th>path</th><th>expected</th><th>got</th></tr></thead><tbody>')
        for d in outcome.differences:
            parts.append(f"<tr><td>{_safe(d.path)}</td><td>{_safe(d.expected or 'absent')}</td>"
                         f"<td>{_safe(d.got or 'absent')}</td></tr>")
        parts.append("</tbody></table>")
        if outcome.more_differences:
            parts.append(f"<p>... and {outcome.more_differences} more differences</p>")
    if outcome.stdout_diff:
        parts.append(f'<pre class="stdout-diff">{_safe(outcome.stdout_diff)}</pre>')
    if outcome.status == ERRORED:
        for key, value in sorted((outcome.context or {}).items()):
            if key != "message":
                parts.append(f"<p>{_safe(key)}:</p><pre>{_safe(value if isinstance(value, str) else repr(value))}</pre>")
    if outcome.stderr and outcome.stderr.strip():
        parts.append(f"<p>stderr:</p><pre>{_safe(outcome.stderr.rstrip()[-4000:])}</pre>")
    parts.append("</div>")
    return "".join(parts)


def _cell(outcome) -> str:
    if outcome is None:
        return '<td class="status">-</td>'
    title = ""
    extra = ""
    if outcome.status == SKIPPED_STATUS and outcome.skip:
        title = f' title="{_safe(outcome.skip.get("message", ""))}"'
        if outcome.skip.get("issue_url"):
            extra = " " + _link(outcome.skip["issue_url"])
    return f'<td class="status {outcome.status}"{title}>{outcome.status}{extra}</td>'


def _cases(view) -> list[str]:
    names = [e.name for e in view.entries]
    rows = view.case_rows()
    gates = gates_of(view)
    out = ['<div class="filters">',
           '<label>Gate <select id="filter-gate"><option value="">every gate</option>',
           *(f'<option value="{_safe(g)}">{_safe(g)}</option>' for g in gates), "</select></label>",
           '<label>Status <select id="filter-status"><option value="">any status</option>',
           *(f'<option value="{s}">{s}</option>' for s in STATUSES), "</select></label>",
           f'<span id="shown-count">{len(rows)} cases shown</span></div>',
           '<table id="case-table"><thead><tr><th>case</th><th>gate</th>',
           *(f"<th>{_safe(n)}</th>" for n in names), "</tr></thead><tbody>"]
    for case, by_name in rows:
        statuses = " ".join(sorted({o.status for o in by_name.values()}))
        data = f'data-gate="{_safe(case.gate)}" data-statuses="{statuses}"'
        out.append(f'<tr class="case" id="case-{_safe(case.id)}" {data}><td><code>{_safe(case.id)}</code>'
                   f'<div class="desc">{_safe(case.description)} &middot; {_safe(", ".join(case.requirements))}'
                   f" &middot; {_safe(case.file)} {_safe(case.path)}</div></td><td>{_safe(case.gate)} {_safe(case.gate_version)}</td>"
                   + "".join(_cell(by_name.get(n)) for n in names) + "</tr>")
        details = [_detail(n, by_name[n]) for n in names
                   if n in by_name and by_name[n].status in (FAILED, ERRORED, XFAILED)]
        if details:
            out.append(f'<tr class="detail" {data}><td colspan="{2 + len(names)}">'
                       f'<p class="desc">{_safe(case.input_kind)}: <code>{_safe(case.input_excerpt)}</code></p>'
                       + (f'<pre class="input-focus">{_safe(chr(10).join(focus_lines(case.input_focus, "")))}</pre>'
                          if case.input_focus else "")
                       + "".join(details) + "</td></tr>")
    out.append("</tbody></table>")
    return out


def _skips(view) -> list[str]:
    out = []
    for entry in view.entries:
        reasons = skip_reasons(entry.results)
        if not reasons:
            continue
        out.append(f"<h3>{_safe(entry.name)}</h3><ul>")
        out += [f"<li>{count}: {_safe(message)}" + (f" ({_link(url, url)})" if url else "") + "</li>"
                for message, url, count in reasons]
        out.append("</ul>")
    return out


def _profiles(view) -> list[str]:
    """Each implementation's verdict per conformance profile, a column each."""
    rows = {e.name: {r["profile"]: r for r in shown_profile_rows(view, e)} for e in view.entries}
    names = list(dict.fromkeys(p for by in rows.values() for p in by))
    out = ['<table id="profile-table"><thead><tr><th>profile</th>',
           *(f"<th>{_safe(e.name)}</th>" for e in view.entries), "</tr></thead><tbody>"]
    for profile in names:
        cells = []
        for entry in view.entries:
            row = rows[entry.name].get(profile)
            verdict = row["verdict"] if row else "not_run"
            cells.append(f'<td class="profile {verdict}">{_safe(verdict_words(row)) if row else "-"}</td>')
        out.append(f"<tr><td>{_safe(profile)}</td>{''.join(cells)}</tr>")
    out.append("</tbody></table>")
    return out


def page(view) -> str:
    if view.compared:
        title = f"{len(view.entries)} implementations compared"
    else:
        title = view.entries[0].title
    ok = view.exit_code == 0
    lines = [(f"{entry.name}: " if view.compared else "") + f"{profile_summary(view, entry)}: {entry.summary_line()}"
             for entry in view.entries]
    body = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Passdown conformance: {_safe(title)}</title><style>{_STYLE}</style></head><body>",
        f"<header><h1>Passdown conformance: {_safe(title)}</h1>",
        f'<p id="verdict" class="verdict {"ok" if ok else "bad"}">'
        f'{"passed" if ok else "failed"} (exit status {view.exit_code})'
        + ("" if view.finished else ": the run did not finish") + "</p>",
        *(f'<p class="summary-line">{_safe(line)}</p>' for line in lines),
        f'<p class="desc">runner: passdown {_safe(view.runner.get("version", "?"))}, '
        f'harness protocol {_safe(view.runner.get("protocol_version", "?"))}</p></header>',
        '<section id="summary"><h2>Summary</h2>', *_summary(view), "</section>",
        '<section id="profiles"><h2>By profile</h2>', *_profiles(view), "</section>",
        '<section id="gates"><h2>By gate</h2>', *_gates(view), "</section>",
        '<section id="cases"><h2>Cases</h2>',
        "<noscript><p>The filters need JavaScript; every case is shown.</p></noscript>",
        *_cases(view), "</section>",
    ]
    skips = _skips(view)
    if skips:
        body += ['<section id="skips"><h2>Skipped, and why</h2>', *skips, "</section>"]
    body += [f"<script>{_SCRIPT}</script>", "</body></html>"]
    return "\n".join(body) + "\n"
