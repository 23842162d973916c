"""The gates. Each module exposes run(ctx) -> Result; the ladder (ladder/ladder.py) decides
whether a gate may run, and writes its evidence."""
from dataclasses import dataclass, field


@dataclass
class Result:
    status: str                      # pass / fail / error / blocked
    reason: str
    measurements: dict = field(default_factory=dict)
    log: list = field(default_factory=list)


@dataclass
class Context:
    spec: object
    device: str                      # evidence device slug, "cpu" without a CUDA device
    probe: dict                      # environment.cuda_probe()
    out_dir: object                  # where this phase's evidence goes

    @property
    def has_gpu(self):
        return self.probe.get("available", False)


def run_per_config(spec, task, timeout_s, result, failures):
    """Runs a GPU task's worker once per build configuration, each in its own watched child.
    Yields (config name, worker result) for those that delivered one; the others (a fault, a
    hang, a crash) are recorded as failures with the reason and skipped."""
    from ..build.buildfile import artifacts
    from ..child import run_worker
    for config in spec.data["build"]["configs"]:
        name = config["name"]
        outcome = run_worker(task, timeout_s, spec_dir=str(spec.dir), config=name,
                             lib=str(artifacts(spec, name)["lib"]))
        result.log.append(f"== config {name}: {task}\n{outcome.output}")
        if outcome.result is None:
            why = outcome.describe(timeout_s)
            failures.append(f"{name}: {why}")
            result.measurements[name] = {"ok": False, "error": why, "output_tail": outcome.tail()}
            continue
        yield name, outcome.result


def summarize_failures(failures, limit=3):
    """One line from a list of failure strings: the first few, and how many more."""
    if not failures:
        return ""
    head = "; ".join(failures[:limit])
    return head + (f"; and {len(failures) - limit} more" if len(failures) > limit else "")
