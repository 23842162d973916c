"""The controls table's matcher (ladder/gates/controls.py): a control matches when the first gate
that did not pass is its expected gate and failed for its expected reason, named on the gate's
reason line or among the problems the gate listed past that line's first three."""
from ladder.gates.controls import row

EXPECT = {"gate": "sanity", "reason": "all-zero queries", "defect": "a cut item's piece is lost"}
SUMMARY = "default: at (1,2,...): side stream; default: PDL producer; default: fewer queries; and 1 more"
LISTED = ["at (1,2,...): side stream", "at (1,2,...): PDL producer", "at (1,2,...): fewer queries",
          "at (1,2,...): all-zero queries: output is not the mean of V"]


def _entry(outcome):
    return {"control": "c", "expect": EXPECT, "outcomes": [["spec", "pass", "loads", None], outcome]}


def test_an_expected_reason_past_the_summary_line_matches():
    assert row(_entry(["sanity", "fail", SUMMARY, "h", LISTED]))["match"] is True


def test_an_expected_reason_in_no_problem_does_not_match():
    assert row(_entry(["sanity", "fail", SUMMARY, "h", LISTED[:3]]))["match"] is False


def test_the_expected_reason_at_another_gate_does_not_match():
    assert row(_entry(["launch", "fail", SUMMARY, "h", LISTED]))["match"] is False


def test_an_outcome_recorded_without_its_problems_matches_on_the_summary_alone():
    assert row(_entry(["sanity", "fail", SUMMARY, "h"]))["match"] is False
    assert row(_entry(["sanity", "fail", "x; all-zero queries: ...", "h"]))["match"] is True


def test_the_problems_kept_with_an_outcome_are_every_configs_list():
    from ladder.controls import problems
    rec = {"derived": {"reason": SUMMARY, "configs": {"default": {"problems": LISTED, "sanitizer": {}}}}}
    assert problems(rec) == LISTED
    assert problems({"derived": {"reason": "fail: x"}}) == []  # a gate that lists none
    assert problems({"derived": {"configs": {"default": {"trials": 3}}}}) == []


def test_a_control_read_from_stale_records_is_shown_but_never_counted_as_matched():
    from ladder.gates.controls import derive, render
    entry = dict(_entry(["sanity", "fail", SUMMARY, "h", LISTED]), stale=["launch", "sanity"])
    r = row(entry)
    assert (r["match"], r["match_when_recorded"], r["stale"]) == (None, True, ["launch", "sanity"])
    fresh = dict(_entry(["sanity", "fail", SUMMARY, "h", LISTED]), control="d")
    d = derive({"controls": [entry, fresh]}, {})
    assert (d["matched"], d["stale"], d["stale_matched_when_recorded"], d["status"]) == (1, 1, 1, "fail")
    assert "1 read from stale records only (1 of them matched when recorded): c" in d["reason"]
    table = render(d["rows"])
    assert "| sanity (fail, stale: launch, sanity) | stale (yes when recorded) |" in table
    assert "| sanity (fail) | yes |" in table


def test_a_table_of_fresh_records_derives_as_before():
    """Rows with no stale gate carry no new fields, so tables recorded before stale rows existed
    re-derive byte for byte (check-evidence re-derives every record)."""
    from ladder.gates.controls import derive
    entry = _entry(["sanity", "fail", SUMMARY, "h", LISTED])
    assert "stale" not in row(entry) and "match_when_recorded" not in row(entry)
    assert set(derive({"controls": [entry]}, {})) == {"status", "reason", "rows", "matched"}
    passed = row({"control": "c", "expect": EXPECT, "stale": ["build"],
                  "outcomes": [["spec", "pass", "loads", None], ["build", "pass", "built", "h"]]})
    assert (passed["match"], passed["match_when_recorded"]) == (None, False)


def test_tabulating_reads_a_stale_record_as_recorded_and_names_its_gate(monkeypatch):
    """run_control(run=False) over the committed H200 records of a sanity control: with freshness
    answered as stale, the same outcomes come back with every gate read named stale; answered
    fresh, no stale list. Nothing runs either way."""
    import pytest
    from ladder import controls, freshness, runner
    from ladder.layout import CONTROLS, EVIDENCE
    d = CONTROLS / "first_head_only"
    if not (EVIDENCE / "h200" / "controls" / "first_head_only" / "sanity.json").is_file():
        pytest.skip("no committed H200 records of first_head_only")
    monkeypatch.setattr(runner, "run", lambda *a, **k: pytest.fail("tabulating ran a gate"))
    monkeypatch.setattr(freshness, "staleness", lambda *a, **k: None)
    fresh = controls.run_control(d, device="h200", run=False)
    monkeypatch.setattr(freshness, "staleness", lambda *a, **k: "recorded for older sources")
    stale = controls.run_control(d, device="h200", run=False)
    assert "stale" not in fresh and fresh["outcomes"] == stale["outcomes"]
    assert stale["stale"] == [o[0] for o in stale["outcomes"][1:]]
    assert stale["outcomes"][-1][:2] == ["sanity", "fail"]
