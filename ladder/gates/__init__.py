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


def summarize_failures(failures, limit=3):
    """One line from a list of failure strings: the first few, and how many more."""
    if not failures:
        return ""
    head = "; ".join(failures[:limit])
    return head + (f"; and {len(failures) - limit} more" if len(failures) > limit else "")
