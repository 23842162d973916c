"""Evidence files: one JSON and one log per gate, written atomically (temp file, fsync, rename),
and an append-only history per phase. A reader never sees a half-written file: it sees the old
one or the new one."""
import datetime as dt
import json
import os
import tempfile
from pathlib import Path

from . import HARNESS_VERSION

SCHEMA_VERSION = 1
STATUSES = ("pass", "fail", "refused", "blocked", "error")
HISTORY = "history.jsonl"


def now():
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def atomic_write(path, text):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    dfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def append_history(directory, line):
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    fd = os.open(directory / HISTORY, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (json.dumps(line, sort_keys=True) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def record(*, phase, gate, status, reason, source_hash, sources, git, env, thresholds,
           measurements, started, kind="phase"):
    assert status in STATUSES, status
    return {
        "schema": SCHEMA_VERSION, "kind": kind, "phase": phase, "gate": gate,
        "status": status, "reason": reason,
        "source_hash": source_hash, "sources": sources, "harness_version": HARNESS_VERSION,
        "git": git, "env": env, "thresholds": thresholds, "measurements": measurements,
        "started": started, "finished": now(),
    }


def write(directory, rec, log_text):
    """Writes <gate>.log, then <gate>.json, then appends the history line: the JSON (what refusal
    and reports read) only ever names a log that is already complete."""
    directory = Path(directory)
    gate = rec["gate"]
    atomic_write(directory / f"{gate}.log", log_text)
    atomic_write(directory / f"{gate}.json", json.dumps(rec, indent=1, sort_keys=True) + "\n")
    append_history(directory, {k: rec[k] for k in
                               ("phase", "gate", "status", "reason", "source_hash", "finished")}
                   | {"git_sha": rec["git"]["sha"], "summary": rec["measurements"].get("summary")})


def read(directory, gate):
    path = Path(directory) / f"{gate}.json"
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except (json.JSONDecodeError, OSError):
        return None
