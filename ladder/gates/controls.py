"""The negative controls' table: for every control, the gate its expect.yaml names and the reason
(a regular expression), against the first gate that did not pass in its run (or "spec" when its
gate.yaml was rejected on load). A control matches when that gate failed for that reason: its
reason line, or any problem the gate listed beyond the first three that line names (a control
whose checks trip in an order that depends on a race, sk_no_fold, can list its expected one
later). Outcomes recorded before the problems were kept have four fields. A table tabulated
from records some of which are stale (entry "stale": those gates) shows what they saw, marked
stale, and never counts them as matched: they say what an older harness or kernel did."""
import re

from . import special


def row(entry):
    expect, outcomes = entry["expect"], entry["outcomes"]
    first = next((o for o in outcomes if o[1] != "pass"), None)
    r = {"control": entry["control"], "defect": expect["defect"], "expected_gate": expect["gate"],
         "expected_reason": expect["reason"]}
    if first is None:
        last = outcomes[-1][0] if outcomes else "?"
        return _marked_stale(dict(r, observed_gate=None, observed_status="pass",
                                  reason=f"passed every gate through {last}", match=False), entry)
    gate, status, reason = first[:3]
    listed = [reason] + (first[4] if len(first) > 4 else [])
    match = gate == expect["gate"] and status == "fail" and any(re.search(expect["reason"], t, re.I) for t in listed)
    r = dict(r, observed_gate=gate, observed_status=status, reason=reason,
             match=None if status in ("blocked", "missing") else match)
    return _marked_stale(r, entry)


def _marked_stale(r, entry):
    if not entry.get("stale"):
        return r
    return dict(r, stale=entry["stale"], match_when_recorded=r["match"], match=None)


def derive(raw, inputs):
    s = special(raw)
    if s:
        return s
    rows = [row(e) for e in raw["controls"]]
    missed = [r["control"] for r in rows if r["match"] is False]
    blocked = [r["control"] for r in rows if r["match"] is None and r["observed_status"] == "blocked"]
    missing = [r["control"] for r in rows if r["observed_status"] == "missing"]
    stale = [r for r in rows if r.get("stale")]
    matched = sum(1 for r in rows if r["match"])
    # only tables that read stale records carry these, so older tables re-derive as recorded
    counts = {"stale": len(stale), "stale_matched_when_recorded": sum(1 for r in stale if r["match_when_recorded"])} \
        if stale else {}
    if missed or missing or stale:
        parts = [f"{len(missed)} control(s) not rejected as expected: {', '.join(missed)}"] if missed else []
        parts += [f"{len(missing)} with no fresh evidence at the gate that must reject them: {', '.join(missing)}"] \
            if missing else []
        parts += [f"{counts['stale']} read from stale records only ({counts['stale_matched_when_recorded']} of them "
                  f"matched when recorded): {', '.join(r['control'] for r in stale)}"] if stale else []
        status, reason = "fail", f"{matched} of {len(rows)} matched; " + "; ".join(parts)
    elif blocked:
        status, reason = "blocked", f"{matched} matched; {len(blocked)} blocked (no CUDA device)"
    else:
        status, reason = "pass", f"all {len(rows)} controls rejected by the expected gate for the expected reason"
    return {"status": status, "reason": reason, "rows": rows, "matched": matched, **counts}


def render(rows):
    """Markdown: control x expected gate x observed gate x reason."""
    def cell(text):
        return " ".join(str(text).split()).replace("|", "\\|")

    lines = ["| control | defect | expected gate | observed gate | match | reason |", "|---|---|---|---|---|---|"]
    def marked(match, status):
        return {True: "yes", False: "**NO**", None: status}[match]

    for r in rows:
        status = r["observed_status"]
        mark = marked(r["match"], status)
        if r.get("stale"):
            mark = f"stale ({marked(r['match_when_recorded'], status)} when recorded)"
            status = f"{status}, stale: {', '.join(r['stale'])}"
        lines.append(f"| {r['control']} | {cell(r['defect'])} | {r['expected_gate']} | "
                     f"{r['observed_gate'] or '-'} ({status}) | {mark} | {cell(r['reason'])} |")
    return "\n".join(lines) + "\n"
