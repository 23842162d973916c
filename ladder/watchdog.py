"""Runs work where a crash or a hang cannot take the ladder down: a child process in its own
process group, killed whole when its watchdog expires. A kernel that faults poisons only the
child's CUDA context; the ladder records the failure and goes on.

run_job sends a child its orders as data (a JSON file: the validated section, the library
paths, the seeds) and gets raw data back; the child (ladder/gpu/job.py) never reads a spec."""
import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .layout import ROOT

TAIL_LINES = 40


@dataclass
class Outcome:
    returncode: int | None
    timed_out: bool
    output: str                      # stdout and stderr together
    result: dict | None = None       # what the child wrote, when it got that far

    def tail(self, n=TAIL_LINES):
        return "\n".join(self.output.strip().splitlines()[-n:])

    def as_raw(self):
        return {"returncode": self.returncode, "timed_out": self.timed_out, "output_tail": self.tail(),
                "result": self.result}


def run_watched(cmd, timeout_s, env=None, cwd=ROOT):
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, cwd=cwd, env=env)
    try:
        out, _ = proc.communicate(timeout=timeout_s)
        return Outcome(proc.returncode, False, out)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return Outcome(None, True, out or "")


def run_job(task, orders, timeout_s):
    """Runs `python -m ladder.gpu.job` on {task, orders}; the Outcome's .result is set when the
    child finished and wrote one."""
    with tempfile.TemporaryDirectory(prefix="ladder-") as tmp:
        job_path, result_path = Path(tmp) / "job.json", Path(tmp) / "result.json"
        job_path.write_text(json.dumps({"task": task, "orders": orders}))
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        outcome = run_watched([sys.executable, "-m", "ladder.gpu.job", str(job_path), str(result_path)],
                              timeout_s, env=env)
        if result_path.is_file() and not outcome.timed_out:
            outcome.result = json.loads(result_path.read_text())
        return outcome
