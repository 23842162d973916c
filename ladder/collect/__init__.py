"""Parent-side collectors: each gate's collect(job) gathers raw data (building, or running
watched children on the GPU) and returns it unjudged; ladder/gates/ derives the verdict."""
from dataclasses import dataclass, field


@dataclass
class Job:
    spec: object
    gate: str
    inputs: dict                     # what the gate is given (section, context); hashed parts
    configs: list                    # [{name, sweep}] the gate runs: those that passed the gate before
    device: str                      # evidence device slug, "cpu" without a CUDA device
    probe: dict                      # environment.cuda_probe()
    log: list = field(default_factory=list)
    headers: list = field(default_factory=list)   # build: what the compiler's depfiles list


def run_configs(job, task, timeout_s, extra=None, parallel=4):
    """Runs a GPU task once per configuration, each in its own watched child (a fault or a hang
    is that configuration's alone), several at a time: these gates time nothing. Returns
    {config: outcome dict} with the child's result, or why it delivered none."""
    from concurrent.futures import ThreadPoolExecutor
    from ..toolchain.ninja_build import artifacts
    from ..watchdog import run_job

    def one(config):
        orders = dict(extra or {}, section=job.inputs["section"], config=config,
                      lib=str(artifacts(job.spec, config)["lib"]))
        return config, run_job(task, orders, timeout_s)

    names = [c["name"] for c in job.configs]
    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        results = list(pool.map(one, names))
    out = {}
    for name, outcome in results:
        job.log.append(f"== config {name}: {task}\n{outcome.output}")
        out[name] = outcome.as_raw()
    return out
