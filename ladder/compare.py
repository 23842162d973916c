"""ladder compare REV: what changed in evidence/ since a git revision, as markdown for a pull
request description. Like nvbench's compare, it reads only evidence (the files at REV, through
git, and the working tree's): gate statuses, verdicts and targets that changed, evidence that is
new or gone, evidence that is stale today, and the candidate medians and ratios that moved."""
import json
import subprocess

from .errors import LadderError
from .layout import EVIDENCE, ROOT


def _files_at(rev):
    try:
        names = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, "--", "evidence"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.split()
    except subprocess.CalledProcessError as e:
        raise LadderError(f"git cannot list evidence/ at {rev!r}: {e.stderr.strip()}") from None
    out = {}
    for n in names:
        if n.endswith(".json"):
            text = subprocess.run(["git", "show", f"{rev}:{n}"], cwd=ROOT, capture_output=True, text=True).stdout
            try:
                out[n[len("evidence/"):]] = json.loads(text)
            except json.JSONDecodeError:
                continue
    return out


def _files_now():
    out = {}
    for p in sorted(EVIDENCE.rglob("*.json")):
        try:
            out[str(p.relative_to(EVIDENCE))] = json.loads(p.read_text())
        except json.JSONDecodeError:
            continue
    return out


def _status(rec):
    d = rec.get("derived") or {}
    return d.get("status", rec.get("status")), d.get("reason", rec.get("reason", ""))


def _verdicts(rec):
    workloads = (rec.get("derived") or {}).get("workloads")
    return {(w["name"], n): c for w in (workloads if isinstance(workloads, list) else [])
            for n, c in w.get("comparisons", {}).items()}


def _medians(rec):
    d = rec.get("derived") or {}
    cand = d.get("candidate")
    return {w["name"]: w["kernels"][cand] for w in d.get("workloads", []) if isinstance(w, dict) and cand in w.get("kernels", {})}


def render(rev):
    old, new = _files_at(rev), _files_now()
    lines = [f"### Evidence changes since `{rev}`", ""]
    added = sorted(set(new) - set(old))
    gone = sorted(set(old) - set(new))
    if added:
        groups = {}
        for a in added:
            folder, _, name = a.rpartition("/")
            groups.setdefault(folder, []).append(f"{name[:-5]} {_status(new[a])[0]}")
        lines += [f"New evidence: {len(added)} file(s)", ""] + [f"- `{f}`: {', '.join(v)}" for f, v in groups.items()]
        lines += [""]
    if gone:
        lines += [f"Removed evidence: {len(gone)} file(s)", ""] + [f"- `{g}`" for g in gone[:40]] + [""]
    changed = [(k, _status(old[k]), _status(new[k])) for k in sorted(set(old) & set(new))
               if _status(old[k])[0] != _status(new[k])[0]]
    if changed:
        lines += ["| evidence | was | now | reason now |", "|---|---|---|---|"]
        lines += [f"| `{k}` | {a[0]} | {b[0]} | {b[1][:120]} |" for k, a, b in changed] + [""]
    rows = []
    for k in sorted(new):
        if not k.endswith("performance.json") or k not in old:
            continue
        ov, nv = _verdicts(old[k]), _verdicts(new[k])
        om, nm = _medians(old[k]), _medians(new[k])
        for w in sorted(set(om) & set(nm)):
            a, b = om[w]["median"], nm[w]["median"]
            if abs(b / a - 1) >= 0.01:
                rows.append(f"| `{k}` | {w} | candidate median | {a:.1f} us | {b:.1f} us ({b / a - 1:+.1%}) |")
        for key in sorted(set(ov) | set(nv)):
            a, b = ov.get(key), nv.get(key)
            if a is None or b is None or a.get("verdict") != b.get("verdict"):
                fmt = lambda c: "-" if c is None else f"{c['verdict']} {c['ratio']:.3f} [{c['ci'][0]:.3f}, {c['ci'][1]:.3f}]"
                rows.append(f"| `{k}` | {key[0]} | vs {key[1]} | {fmt(a)} | {fmt(b)} |")
        ot = [t.get("met") for t in (old[k].get("derived") or {}).get("targets", [])]
        nt = [t.get("met") for t in (new[k].get("derived") or {}).get("targets", [])]
        if ot != nt:
            rows.append(f"| `{k}` | targets | met | {sum(map(bool, ot))}/{len(ot)} | {sum(map(bool, nt))}/{len(nt)} |")
    if rows:
        lines += ["| evidence | workload | what | was | now |", "|---|---|---|---|---|"] + rows + [""]
    from .check import check_tree
    _, invalid, stale, _ = check_tree()
    lines += [f"Today: {len(new)} file(s), {len(invalid)} invalid, {len(stale)} stale."]
    lines += [f"- stale: `{s}`" for s in stale[:20]] + [f"- invalid: `{s}`" for s in invalid[:20]]
    if not (added or gone or changed or rows):
        lines.insert(2, "No evidence changed.")
    return "\n".join(l for l in lines if l is not None) + "\n"


def main(rev):
    print(render(rev), end="")
    return 0
