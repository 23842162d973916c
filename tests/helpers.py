"""Shared by the tests: running the command line the way a user does."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ladder_cli(*args, env=None, timeout=900):
    """Runs `python -m ladder ARGS` from the repository; returns CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "ladder", *args], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=timeout)
