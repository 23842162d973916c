"""Evidence files. Every one, phase gates, calibration, controls and reproduce alike, has one form:

    {"schema", "kind", "name", "phase"?, "gate"?,
     "inputs":  what the run was given (the validated section, configs, seeds, device) and the
                hash of what it depends on (see ladder/freshness.py),
     "raw":     what the run observed, unmodified (tool output, samples, child results),
     "derived": derive(raw, inputs): figures, status and reason; nothing else decides them,
     "meta":    git sha and dirty flag, environment, numpy/scipy versions, timestamps, wall time}

check-evidence re-derives `derived` from `raw` and `inputs` and compares exactly. Files are written
atomically (temp file, fsync, rename); a history file per folder keeps one line per run."""
import datetime as dt
import json
import os
import tempfile
from pathlib import Path

SCHEMA_VERSION = 2
STATUSES = ("pass", "fail", "refused", "blocked", "error")
KINDS = ("gate", "calibration", "controls", "reproduce", "seqlen")
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


def canonical(value):
    """JSON round trip: what a record holds once written, so derived values compare exactly."""
    return json.loads(json.dumps(value, sort_keys=True))


def record(*, kind, name, inputs, raw, derived, meta, phase=None, gate=None):
    assert kind in KINDS and derived["status"] in STATUSES, (kind, derived.get("status"))
    rec = {"schema": SCHEMA_VERSION, "kind": kind, "name": name, "inputs": inputs, "raw": raw,
           "derived": derived, "meta": meta}
    if phase is not None:
        rec.update(phase=phase, gate=gate)
    return canonical(rec)


def write(path, rec, log_text=None):
    """Writes <stem>.log (when given), then <stem>.json, then appends the history line: the JSON
    (what refusal and reports read) only ever names a log that is already complete."""
    path = Path(path)
    if log_text is not None:
        atomic_write(path.with_suffix(".log"), log_text)
    atomic_write(path, json.dumps(rec, indent=1, sort_keys=True) + "\n")
    d = rec["derived"]
    append_history(path.parent, {
        "kind": rec["kind"], "name": rec["name"], "gate": rec.get("gate"), "status": d["status"],
        "reason": d["reason"], "input_hash": rec["inputs"].get("hash"), "git_sha": rec["meta"]["git"]["sha"],
        "finished": rec["meta"]["finished"], "duration_s": rec["meta"].get("duration_s")})


def read(path):
    path = Path(path)
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except (json.JSONDecodeError, OSError):
        return None


def status(rec):
    return (rec.get("derived") or {}).get("status") if rec else None
