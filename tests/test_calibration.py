"""The calibration's derive on synthetic processes with known shifts: repetitions are disjoint
chunks from three processes each, analysed exactly as the gate analyses a workload, and the rates
come out as the shifts say."""
import numpy as np

from ladder.gates.calibration import derive, repetitions
from ladder.spec import load_calibration
from synthetic import perf_process

W = {"name": "seed", "B": 1, "H": 8, "S_q": 512, "S_k": 512, "D": 64, "dtype": "fp16", "causal": False}


# Per-sample noise as measured on an H100 (smoke run of phase_c, sigma of the paired log ratio of
# the candidate and its A/A twin): ~2% at the seed workload (1.4% per sample), ~0.3% at a
# millisecond-long one.
NOISE = {"seed": 0.014, "big": 0.002}


def _raw(cfg, noise, round_noise=0.01, seed=0):
    rng = np.random.default_rng(seed)
    c = cfg["phase"]
    procs = []
    for p in range(cfg["processes"]):
        ws = []
        for w in cfg["workloads"]:
            times = {c: 12.0, c + "~aa": 12.0, c + "~aa2": 12.0}
            times.update({f"{c}~shift{f * 100:g}%": 12.0 * (1 + f) for f in w["shifts"]})
            if w.get("heavier_heads"):
                times[f"{c}~{w['heavier_heads']}heads"] = 12.0 * w["heavier_heads"] / w["H"]
            times.update({b: 11.0 for b in cfg["baselines"]})
            rounds = w["rounds"] * cfg["repetitions"] // (cfg["processes"] // cfg["per_repetition"])
            ws.append(perf_process(dict(W, name=w["name"]), times, rounds, rng, noise=noise * NOISE[w["name"]],
                                   round_noise=round_noise))
        procs.append({"workloads": ws})
    return {"config": "x", "processes": procs, "failures": []}


def test_repetitions_are_disjoint_and_counted():
    cfg = load_calibration()
    raw = _raw(cfg, 1.0)
    reps = repetitions(raw["processes"], 0, cfg["workloads"][0]["rounds"], cfg["per_repetition"])
    assert len(reps) == cfg["repetitions"] and len(set(reps)) == len(reps)


def test_clean_samples_pass_calibration():
    cfg = load_calibration()
    d = derive(_raw(cfg, noise=1.0), {"section": cfg})
    assert d["status"] == "pass", d["reason"]
    seed = d["workloads"]["seed"]["rates"]
    aa = next(r for n, r in seed.items() if n.endswith("~aa2"))
    assert aa["k"] <= 2 and aa["ci"][1] <= 0.05
    assert next(r for n, r in seed.items() if n.endswith("~shift5%"))["rate"] >= 0.9
    assert abs(d["workloads"]["big"]["true_shift"][cfg["phase"] + "~21heads"] - 0.05) < 0.01


def test_noisy_samples_fail_calibration_and_say_why():
    cfg = load_calibration()
    d = derive(_raw(cfg, noise=10.0), {"section": cfg})
    assert d["status"] == "fail" and "found" in d["reason"]


def test_calibrate_and_seqlen_refuse_without_build_records(monkeypatch, capsys):
    """On a machine with a GPU but no build record of a phase they compare, `ladder calibrate`
    and `ladder seqlen` stop before measuring: their input hashes read those records, so what
    they wrote without them would be stale on arrival. Nothing is written."""
    import pytest

    from ladder import calibration, cli, runner, seqlen
    from ladder.layout import device_dir

    device = "no-such-device-for-test"
    monkeypatch.setattr(runner, "cuda_probe", lambda: {"available": True, "reason": ""})
    monkeypatch.setattr(runner, "device_name", lambda: device)
    monkeypatch.setattr(calibration, "main", lambda: pytest.fail("calibrate ran"))
    monkeypatch.setattr(seqlen, "main", lambda: pytest.fail("seqlen ran"))
    assert cli.main(["calibrate"]) == 2
    assert "no build record of phase_c" in capsys.readouterr().err
    assert cli.main(["seqlen"]) == 2
    assert "no build record of phase_a" in capsys.readouterr().err
    assert not device_dir(device).exists()
