"""Runs work where a crash or a hang cannot take the ladder down: a child process in its own
process group, killed whole when its watchdog expires. A kernel that faults poisons only the
child's CUDA context; the ladder records the failure and goes on."""
import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .layout import ROOT


@dataclass
class Outcome:
    returncode: int | None
    timed_out: bool
    output: str                      # stdout and stderr together
    result: dict | None = None       # what a worker wrote, when it got that far

    def tail(self, n=15):
        return "\n".join(self.output.strip().splitlines()[-n:])

    def describe(self, timeout_s):
        """One line: why the child did not deliver a result."""
        if self.timed_out:
            return f"hung: killed by the watchdog after {timeout_s:.0f} s"
        lines = [l for l in self.output.strip().splitlines() if l.strip()]
        cuda = [l for l in lines if "CUDA error" in l or "cudaError" in l or "illegal" in l.lower()
                or "misaligned" in l.lower() or "KernelError" in l]
        last = (cuda or lines or ["no output"])[-1].strip()
        if self.returncode is not None and self.returncode < 0:
            return f"child died by signal {-self.returncode}: {last}"
        return f"child exited {self.returncode}: {last}"


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


def run_worker(task, timeout_s, **job):
    """Runs ladder.worker with a JSON job; returns the Outcome with .result set on success."""
    with tempfile.TemporaryDirectory(prefix="ladder-") as tmp:
        job_path, result_path = Path(tmp) / "job.json", Path(tmp) / "result.json"
        job_path.write_text(json.dumps(dict(job, task=task)))
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        outcome = run_watched([sys.executable, "-m", "ladder.worker", str(job_path), str(result_path)],
                              timeout_s, env=env)
        if result_path.is_file() and not outcome.timed_out:
            outcome.result = json.loads(result_path.read_text())
        return outcome
