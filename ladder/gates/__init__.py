"""What each gate means: derive(raw, inputs) -> derived, one pure function per gate and per
evidence kind (ladder/registry.py lists them). A derive function sees only the raw data a run
observed and the inputs it was given, so check-evidence can recompute every figure, status and
reason from a committed file. Nothing here imports torch, ninja or a runner."""

STATUS_ORDER = ("pass", "fail", "error", "refused", "blocked")


def summarize(failures, limit=3):
    """One line from a list of failure strings: the first few, and how many more."""
    if not failures:
        return ""
    head = "; ".join(failures[:limit])
    return head + (f"; and {len(failures) - limit} more" if len(failures) > limit else "")


def child_failure(outcome, timeout_s):
    """One line: why a watched child delivered no result (fault, hang, crash), or None."""
    if outcome.get("result") is not None and not outcome.get("timed_out"):
        return None
    if outcome.get("timed_out"):
        return f"hung: killed by the watchdog after {timeout_s:.0f} s"
    lines = [l for l in (outcome.get("output_tail") or "").strip().splitlines() if l.strip()]
    cuda = [l for l in lines if "CUDA error" in l or "cudaError" in l or "illegal" in l.lower()
            or "misaligned" in l.lower() or "KernelError" in l]
    last = (cuda or lines or ["no output"])[-1].strip()
    rc = outcome.get("returncode")
    if rc is not None and rc < 0:
        return f"child died by signal {-rc}: {last}"
    return f"child exited {rc}: {last}"


def special(raw):
    """derived for a record that holds no measurement: refused, blocked, or a harness error."""
    for status in ("refused", "blocked", "error"):
        if status in raw:
            text = raw[status] if status != "error" else raw["error"].strip().splitlines()[-1]
            return {"status": status, "reason": text}
    return None


def by_config(configs, failures_of, passed_text):
    """Status over a gate's configurations. configs: [{name, sweep}] the gate ran;
    failures_of: {name: [failure strings]}. Explicit configurations must all pass; a sweep
    configuration may be rejected, with its reason, as long as one configuration passes."""
    failed = {c["name"]: failures_of.get(c["name"], []) for c in configs if failures_of.get(c["name"])}
    passing = [c["name"] for c in configs if c["name"] not in failed]
    rejected = {c["name"]: failed[c["name"]][0] for c in configs if c["sweep"] and c["name"] in failed}
    hard = [f"{name}: {f}" for c in configs if not c["sweep"] for name in [c["name"]] for f in failed.get(name, [])]
    if not configs:
        return {"status": "fail", "reason": "no configuration to run", "passing": [], "rejected": {}}
    if hard or not passing:
        lines = hard or [f"{n}: {f}" for n, fs in failed.items() for f in fs]
        return {"status": "fail", "reason": summarize(lines), "passing": passing, "rejected": rejected}
    reason = passed_text(passing)
    if rejected:
        reason += f"; {len(rejected)} sweep configuration(s) rejected with their reasons"
    return {"status": "pass", "reason": reason, "passing": passing, "rejected": rejected}
