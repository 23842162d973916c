"""check-evidence: every derived field of an evidence record recomputes from its raw data and
inputs, so changing any one of them is caught; readers import no runner and no build code."""
import copy
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT
from ladder import check, evidence, freshness
from ladder.layout import EVIDENCE
from ladder.registry import derive_fn


def _leaves(x, path=()):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(x, list) and x:
        for i, v in enumerate(x):
            yield from _leaves(v, path + (i,))
    else:
        yield path


def _mutated(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, float) and not abs(value) < float("inf"):
        return 0.0                                   # inf or NaN: any finite number differs
    if isinstance(value, (int, float)):
        return value * 1.0001 + 1e-9 if value else 1e-9
    if isinstance(value, str):
        return value + " (edited)"
    if value is None:
        return 0
    return ["edited"]


def _set(obj, path, value):
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value


def committed_records(limit_per_kind=1):
    """A committed record of every kind and gate (the first found), or none on a fresh tree."""
    seen, out = set(), []
    for path in sorted(Path(EVIDENCE).rglob("*.json")):
        rec = evidence.read(path)
        key = (rec.get("kind"), rec.get("gate")) if rec else None
        if key and key not in seen and rec.get("schema") == evidence.SCHEMA_VERSION:
            seen.add(key)
            out.append((path, rec))
    return out


def _check_every_leaf(path, rec):
    again = evidence.canonical(derive_fn(rec["kind"], rec.get("gate"))(rec["raw"], rec["inputs"]))
    assert check._diff(again, rec["derived"]) == [], f"{path} does not recompute as committed"
    leaves = [p for p in _leaves(rec["derived"]) if p]
    assert leaves
    for p in leaves:
        bad = copy.deepcopy(rec["derived"])
        _set(bad, p, _mutated(_get(bad, p)))
        assert check._diff(again, bad), f"{path}: changing derived{list(p)} went unnoticed"
    # And through the full validation, for a sample of fields: the file is reported invalid.
    for p in leaves[:: max(1, len(leaves) // 3)]:
        bad = copy.deepcopy(rec)
        _set(bad["derived"], p, _mutated(_get(rec["derived"], p)))
        assert check.validate(bad, path), p


def _get(obj, path):
    for k in path:
        obj = obj[k]
    return obj


@pytest.mark.parametrize("path, rec", committed_records() or [pytest.param(None, None, marks=pytest.mark.skip(
    reason="no committed evidence in the new form yet"))])
def test_every_derived_field_of_committed_evidence_is_checked(path, rec):
    _check_every_leaf(path, rec)


def test_every_derived_field_of_a_synthetic_record_is_checked(tmp_path):
    from synthetic import perf_raw
    w = {"name": "w", "B": 1, "H": 8, "S_q": 512, "S_k": 512, "D": 64, "dtype": "fp16", "causal": False}
    section = {"workloads": [w], "targets": [{"vs": "sdpa_flash", "workloads": None, "max_ratio": 10.0,
                                              "min_speedup": None, "verdict": None}],
               "timing": {"min_margin": 0.01, "leak_ratio": 1.3, "recheck_k": 2.0, "processes": 3}}
    raw = perf_raw("p", {"p": 20.0, "p~aa": 20.0, "sdpa_flash": 15.0}, [w])
    inputs = {"hash": "x", "section": section, "context": {"peaks": {"tensor_flop_s": 1e15, "dram_byte_s": 3e12}}}
    derived = derive_fn("gate", "performance")(raw, inputs)
    rec = evidence.record(kind="gate", name="p/performance", phase="p", gate="performance", inputs=inputs, raw=raw,
                          derived=derived, meta={"git": {"sha": "x"}, "finished": "t"})
    path = tmp_path / "dev" / "p" / "performance.json"
    _check_every_leaf(path, rec)


def test_a_stale_record_that_todays_rules_derive_otherwise_is_stale_and_a_fresh_one_invalid(tmp_path, monkeypatch):
    """A rule added to a gate since a record was made (the cold-graph floor, twenty-eighth
    session, on an H100 record made before it) changes what derive() gives for it: the record is
    stale, since the gate's modules are among its inputs, and says so; the same difference on a
    fresh record is a forgery."""
    from synthetic import perf_raw
    w = {"name": "w", "B": 1, "H": 8, "S_q": 512, "S_k": 512, "D": 64, "dtype": "fp16", "causal": False}
    section = {"workloads": [w], "targets": [], "timing": {"min_margin": 0.01, "leak_ratio": 1.3, "recheck_k": 2.0,
                                                           "processes": 3}}
    raw = perf_raw("p", {"p": 20.0, "p~aa": 20.0}, [w])
    inputs = freshness.finish({"section": section, "context": {"peaks": {"tensor_flop_s": 1e15,
                                                                            "dram_byte_s": 3e12}}})
    derived = derive_fn("gate", "performance")(raw, inputs)
    derived["status"] = "pass" if derived["status"] == "fail" else "fail"  # as an older rule might have said
    rec = evidence.record(kind="gate", name="p/performance", phase="p", gate="performance", inputs=inputs, raw=raw,
                          derived=derived, meta={"git": {"sha": "x"}, "finished": "t"})
    path = tmp_path / "dev" / "p" / "performance.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(rec))
    monkeypatch.setattr(check, "staleness", lambda *a: "recorded for inputs a, sources now hash to b")
    invalid, stale, _ = check._check_file(path, tmp_path, None)
    assert invalid == [] and "today's derive() gives 1 derived field(s) otherwise" in stale
    monkeypatch.setattr(check, "staleness", lambda *a: None)
    invalid, stale, _ = check._check_file(path, tmp_path, None)
    assert stale is None and len(invalid) == 1 and "derived.status" in invalid[0]


def test_floats_recompute_to_within_their_last_bits_and_nothing_else_does():
    """Another machine's numpy may round a float reduction differently in its last bits (CI
    against the GPU machine's records); an edit, a flipped verdict or a changed count must not
    pass as such."""
    recomputed = {"ratio": 0.9630781234567891, "verdict": "SAME", "n": 3, "ok": True, "ci": [0.95, 0.976],
                  "spread": 0.0043451045249378595}
    stored = copy.deepcopy(recomputed)
    stored["ratio"] = math.nextafter(math.nextafter(stored["ratio"], 1.0), 1.0)   # two ulps
    stored["spread"] = 0.004345104524936971                                      # 2e-14 relative
    near = []
    assert check._diff(recomputed, stored, near=near) == []
    assert sorted(near) == ["derived.ratio", "derived.spread"]
    for key, edited in (("ratio", 0.9630791234567891), ("ci", [0.95, 0.97601]), ("verdict", "FASTER"),
                        ("n", 4), ("ok", False), ("spread", 0.0)):
        bad = dict(stored, **{key: edited})
        assert check._diff(recomputed, bad), key
    assert check._diff({"x": 0.0}, {"x": 1e-11}) and not check._diff({"x": 0.0}, {"x": 1e-13})


def test_blocked_or_malformed_evidence_is_invalid(tmp_path):
    rec = evidence.record(kind="gate", name="p/launch", phase="p", gate="launch", inputs={"hash": "h"},
                          raw={"blocked": "no CUDA device"}, derived={"status": "blocked", "reason": "no CUDA device"},
                          meta={"git": {"sha": "x"}, "finished": "t"})
    path = tmp_path / "dev" / "p" / "launch.json"
    problems = check.validate(rec, path)
    assert any("blocked evidence must never be committed" in p for p in problems)
    assert any("inputs hash" in p for p in problems)      # "h" is not the hash of the recorded inputs
    del rec["raw"]
    assert check.validate(rec, path) == ["raw should be dict"]


def test_readers_import_no_runner_no_build_code_and_no_torch(tmp_path):
    """check-evidence and the report work where only pyyaml, numpy and scipy are installed."""
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name.split('.')[0] in ('ninja', 'torch', 'matplotlib') or name in ('ladder.runner', "
            "'ladder.collect', 'ladder.toolchain', 'ladder.watchdog', 'ladder.controls', 'ladder.calibration'):\n"
            "            raise ImportError('readers must not import ' + name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from ladder import check, cli\n"
            "sys.exit(check.main())\n")
    env = dict(os.environ, LADDER_ROOT=str(tmp_path), PYTHONPATH=str(ROOT))
    (tmp_path / "phases").mkdir()
    (tmp_path / "phases" / "floor.yaml").write_text((ROOT / "phases" / "floor.yaml").read_text())
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "check-evidence: 0 file(s)" in r.stdout, r.stdout + r.stderr
