"""Collects the correctness gate: each configuration's trials in its own watched child, several
configurations at a time (nothing here is timed)."""
from . import run_configs


def collect(job):
    return {"configs": run_configs(job, "correctness", job.inputs["section"]["timeout_s"])}
