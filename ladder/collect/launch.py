"""Collects the launch gate: each configuration's launch shapes in its own watched child."""
from . import run_configs


def collect(job):
    return {"configs": run_configs(job, "launch", job.inputs["section"]["timeout_s"])}
