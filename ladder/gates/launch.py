"""Gate 2, launch: every configuration ran the launch shapes in its own watched child. A fault
(illegal address, misaligned access), a refusal (an error code) or a hang is that
configuration's failure, with the CUDA error text."""
from ..vocab import shape_label
from . import by_config, child_failure, special


def derive(raw, inputs):
    s = special(raw)
    if s:
        return s
    timeout = inputs["section"]["timeout_s"]
    configs = inputs["configs"]
    failures = {}
    for c in configs:
        outcome = raw["configs"][c["name"]]
        why = child_failure(outcome, timeout)
        if why:
            failures[c["name"]] = [why]
            continue
        rows = outcome["result"]["shapes"]
        bad = [f"at {shape_label(r['shape'])}: {r['error']}" for r in rows if not r["ok"]]
        missing = len(inputs["section"]["shapes"]) - len(rows)
        failures[c["name"]] = bad + ([f"{missing} shape(s) not run"] if missing and not bad else [])
    n = len(inputs["section"]["shapes"])
    return by_config(configs, failures, lambda ok: f"{len(ok)} config(s) x {n} shape(s) launched and synchronised cleanly")
