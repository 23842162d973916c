"""Evidence writing: atomic files, append-only history, and a real SIGKILL in the middle of
writing that must leave the previous evidence intact and readable."""
import json
import os
import signal
import subprocess
import sys
import time

from helpers import ROOT
from ladder import evidence

WRITER = r"""
import sys
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from ladder import evidence
n = 0
while True:
    n += 1
    rec = evidence.record(kind="gate", name="p/performance", phase="p", gate="performance",
                          inputs={"hash": "h"}, raw={"samples": list(range(200000))},
                          derived={"status": "pass", "reason": f"run {n}"},
                          meta={"git": {"sha": "x"}, "finished": "t"})
    evidence.write(Path(sys.argv[1]) / "performance.json", rec, "log line\n" * 20000)
    print(n, flush=True)
"""

def test_atomic_write_replaces_whole_files(tmp_path):
    evidence.atomic_write(tmp_path / "a.json", "old")
    evidence.atomic_write(tmp_path / "a.json", "new")
    assert (tmp_path / "a.json").read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]  # no temp files left behind


def test_sigkill_while_writing_leaves_readable_evidence_and_whole_history(tmp_path):
    out = tmp_path / "ev"
    for i in range(12):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(out), str(ROOT)], stdout=subprocess.PIPE, text=True)
        proc.stdout.readline()  # at least one complete write before the kill
        time.sleep(0.01 + 0.037 * i)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        rec = json.loads((out / "performance.json").read_text())  # never half a file
        assert rec["derived"]["reason"].startswith("run ") and len(rec["raw"]["samples"]) == 200000
        lines = (out / evidence.HISTORY).read_text().splitlines()
        assert all(json.loads(l)["gate"] == "performance" for l in lines)  # never truncated
    # history only grows: every completed write is still listed
    assert len(lines) >= 12
