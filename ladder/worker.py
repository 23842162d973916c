"""The child side of ladder.child.run_worker: reads a job, runs one task on the GPU, writes the
result as JSON. Its exit code is 0 only when the result file was written."""
import importlib
import json
import sys
from pathlib import Path

TASKS = {
    "launch": "ladder.gpu.launch_body",
    "sanity": "ladder.gpu.sanity_body",
    "correctness": "ladder.gpu.correctness_body",
    "performance": "ladder.gpu.performance_body",
    "calibration": "ladder.gpu.calibration_body",
}


def main(job_path, result_path):
    job = json.loads(Path(job_path).read_text())
    module = importlib.import_module(TASKS[job["task"]])
    result = module.run(job)
    from .evidence import atomic_write
    atomic_write(result_path, json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
