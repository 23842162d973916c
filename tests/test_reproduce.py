"""make reproduce's comparison on tables whose answer is known: what agrees, what contradicts,
what is withheld in one run, and the invocation drift the verdicts assume."""
import math

from ladder import stats
from ladder.gates.reproduce import classify, derive


def _table(verdicts, ratios=None, targets=None):
    return {"verdicts": verdicts, "log_ratios": ratios or {k: 0.0 for k in verdicts}, "targets": targets or {}}


def _run(a, b):
    return derive({"phases": {"p": {"committed": a, "rerun": b}}}, {})


def test_classify():
    assert classify("FASTER", "FASTER") == "agree"
    assert classify("FASTER", "SAME") == classify("SLOWER", "FASTER") == "contradiction"
    assert classify("SAME", "AMBIGUOUS") == classify("NO VERDICT (leak)", "FASTER") == "withheld in one run"
    assert classify("AMBIGUOUS", "UNRESOLVED") == "agree"


def test_identical_tables_pass():
    t = _table({"w / a": "FASTER", "w / b": "SAME"}, targets={"a 0 on w": True})
    out = _run(t, t)
    assert out["status"] == "pass" and out["identical_verdicts"] == 2 and out["drift_measured"] == 0.0


def test_a_contradiction_or_a_target_that_differs_fails():
    a = _table({"w / a": "FASTER", "w / b": "SAME"}, targets={"a 0 on w": True})
    out = _run(a, _table({"w / a": "SAME", "w / b": "SAME"}, targets={"a 0 on w": True}))
    assert out["status"] == "fail" and out["contradictions"] == 1 and "FASTER then SAME" in out["reason"]
    out = _run(a, _table({"w / a": "FASTER", "w / b": "SAME"}, targets={"a 0 on w": False}))
    assert out["status"] == "fail" and out["target_differences"] == 1


def test_a_verdict_withheld_in_one_run_is_counted_not_failed():
    a = _table({"w / a": "FASTER", "w / b": "SAME"})
    out = _run(a, _table({"w / a": "AMBIGUOUS", "w / b": "SAME"}))
    assert out["status"] == "pass" and out["withheld_in_one_run"] == 1 and out["identical_verdicts"] == 1
    assert "1 withheld in one run" in out["reason"]


def test_drift_beyond_the_assumed_fails():
    keys = [f"w / k{i}" for i in range(20)]
    a = _table({k: "FASTER" for k in keys}, {k: -0.5 for k in keys})
    # every ratio moved by 1.2 x sqrt(2) x d between the runs: 1.2 d per invocation
    moved = {k: -0.5 + 1.2 * math.sqrt(2) * stats.INVOCATION_DRIFT for k in keys}
    out = _run(a, _table({k: "FASTER" for k in keys}, moved))
    assert out["status"] == "fail" and "exceeds the assumed" in out["reason"]
    small = {k: -0.5 + 0.5 * math.sqrt(2) * stats.INVOCATION_DRIFT for k in keys}
    assert _run(a, _table({k: "FASTER" for k in keys}, small))["status"] == "pass"
