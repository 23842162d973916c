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
