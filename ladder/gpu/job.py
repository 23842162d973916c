"""The child side of ladder.watchdog.run_job: reads its orders (data only: a validated section,
library paths, seeds), runs one task on the GPU, and writes raw results as JSON. It never reads
gate.yaml. Its exit code is 0 only when the result file was written."""
import importlib
import json
import sys
from pathlib import Path

TASKS = {
    "launch": "ladder.gpu.launch",
    "sanity": "ladder.gpu.sanity",
    "correctness": "ladder.gpu.correctness",
    "performance": "ladder.gpu.performance",
    "calibration": "ladder.gpu.calibration",
}


def main(job_path, result_path):
    job = json.loads(Path(job_path).read_text())
    module = importlib.import_module(TASKS[job["task"]])
    result = module.run(job["orders"])
    from ..evidence import atomic_write
    atomic_write(result_path, json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
