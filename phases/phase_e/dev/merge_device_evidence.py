"""Merge the evidence tars that device calls return into the checkout, oldest call first.

    python3 phases/phase_e/dev/merge_device_evidence.py /work/.device/2/evidence_h200.tgz@fd12b8a \
        /work/.device/3/evidence_h200.tgz@2d3236e --whole evidence/h200/controls [--dry-run]

A call tars the device's whole evidence/<machine> folder, so a tar holds every record the call
made and also the copy of every other record the checkout sent with the call. Copied naively, a
later tar puts back those sent copies over what an earlier call made: in the twenty-sixth session
the second call's tar, which carried phases a-c's records as they were before the first call,
overwrote the first call's new ones. Rules:
- a file whose content equals its version at the commit the call ran on (TAR@COMMIT, the SHA
  given as LADDER_GIT_SHA; HEAD when omitted) was sent, not made: skipped;
- history.jsonl: its new lines are appended (every call appends to the copy it was sent);
- any other file is written;
- a folder that was held out of the call (see hold_evidence.sh) arrives only with what the call
  wrote: for each such folder named with --whole, files the tar does not have are removed, so no
  record of a gate past the one that failed survives from an earlier run.
Run it with the held-out folders back in place (hold_evidence.sh back), then commit."""
import argparse
import subprocess
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def committed(rel, commit):
    """The bytes of rel at commit, or None when it is not tracked there."""
    got = subprocess.run(["git", "show", f"{commit}:{rel}"], cwd=ROOT, capture_output=True)
    return got.stdout if got.returncode == 0 else None


def merge_history(dst, data, dry_run):
    have = dst.read_text().splitlines() if dst.exists() else []
    new = [line for line in data.decode().splitlines() if line and line not in set(have)]
    if new and not dry_run:
        dst.parent.mkdir(parents=True, exist_ok=True)  # a record folder the call made
        dst.write_text("\n".join(have + new) + "\n")
    return len(new)


def merge(arg, whole, dry_run):
    tgz, _, commit = arg.partition("@")
    with tarfile.open(tgz) as t:
        files = {m.name: t.extractfile(m).read() for m in t.getmembers()
                 if m.isfile() and m.name.startswith("evidence/")}
    for rel, data in sorted(files.items()):
        dst = ROOT / rel
        if dst.name == "history.jsonl":
            n = merge_history(dst, data, dry_run)
            if n:
                print(f"{tgz}: {rel}: {n} line(s) appended")
        elif data == committed(rel, commit or "HEAD"):
            continue  # sent with the call, not made by it
        elif not dst.exists() or dst.read_bytes() != data:
            print(f"{tgz}: {rel}: written")
            if not dry_run:
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_bytes(data)
    for folder in whole:
        for d in sorted({str(Path(r).parent) for r in files if r.startswith(folder.rstrip("/") + "/")}):
            for f in sorted((ROOT / d).iterdir()):
                rel = str(f.relative_to(ROOT))
                if f.is_file() and rel not in files:
                    print(f"{tgz}: {rel}: removed (not made by this call's run of that folder)")
                    if not dry_run:
                        f.unlink()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tars", nargs="+", help="evidence tars, oldest call first, each as TAR@COMMIT")
    ap.add_argument("--whole", action="append", default=[],
                    help="a folder held out of the calls (e.g. evidence/h200/controls): each of its "
                         "subfolders in a tar is taken as the whole record of that run")
    ap.add_argument("--dry-run", action="store_true", help="say what would change, change nothing")
    args = ap.parse_args()
    for tgz in args.tars:
        merge(tgz, args.whole, args.dry_run)


if __name__ == "__main__":
    main()
