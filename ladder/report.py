"""Renders evidence/README.md (gate table, performance figures from each phase's own run, targets,
controls, calibration, plots) and the phase table in the top-level README, from the evidence
JSON alone."""
import json
import re
from pathlib import Path

from . import evidence
from .layout import EVIDENCE, ROOT, phase_dirs
from .sourcehash import source_hash
from .spec import GATES, load_spec

MARK_START, MARK_END = "<!-- phases:start -->", "<!-- phases:end -->"
HEADLINE = "b4_s4096_d128"


def _devices():
    return sorted(d for d in EVIDENCE.iterdir() if d.is_dir()) if EVIDENCE.is_dir() else []


def _status_cell(rec, current_hash):
    if rec is None:
        return "-"
    cell = rec["status"]
    if rec["source_hash"] != current_hash:
        cell += " (stale)"
    return cell


def _gate_table(device, specs):
    head = "| phase | what it adds | " + " | ".join(GATES) + " |"
    lines = [head, "|" + "---|" * (len(GATES) + 2)]
    for spec in specs:
        h = source_hash(spec)
        cells = [_status_cell(evidence.read(device / spec.name, g), h) if g in spec.gates else "n/a" for g in GATES]
        lines.append(f"| [{spec.name}](../phases/{spec.name}/NOTES.md) | {spec.data['description']} | "
                     + " | ".join(cells) + " |")
    return lines


def _perf(device, spec):
    rec = evidence.read(device / spec.name, "performance")
    return rec if rec and "workloads" in rec["measurements"] else None


def _perf_tables(device, specs):
    lines = []
    for spec in specs:
        rec = _perf(device, spec)
        if rec is None:
            continue
        m = rec["measurements"]
        lines += [f"#### {spec.name} ({rec['status']}, {rec['finished']}, git {rec['git']['sha'][:10]})", "",
                  "| workload | kernel | median us | IQR us | n | TFLOP/s | of matmul ceiling | vs "
                  f"{spec.name}: ratio [95% CI] | verdict |", "|---|---|---|---|---|---|---|---|---|"]
        for w in m["workloads"]:
            for name, k in w["kernels"].items():
                comp = w["comparisons"].get(name)
                ratio = f"{1 / comp['ratio']:.3f} [{1 / comp['ci'][1]:.3f}, {1 / comp['ci'][0]:.3f}]" if comp else "-"
                verdict = {"FASTER": "slower", "SLOWER": "faster", "SAME": "same", "AMBIGUOUS": "ambiguous"}[
                    comp["verdict"]] if comp else "-"
                frac = f"{k['frac_of_measured_matmul']:.0%}" if k.get("frac_of_measured_matmul") else "-"
                graph = f" (graph {k['graph_per_call_us']:.1f})" if k.get("graph_per_call_us") else ""
                lines.append(f"| {w['name']} | {name} | {k['median']:.1f}{graph} | {k['iqr']:.1f} | {k['n']} | "
                             f"{k['tflops']:.1f} | {frac} | {ratio} | {verdict} |")
        lines += ["", "Ratios are that kernel's time over the phase's; verdicts say how that kernel compares "
                      "with the phase.", ""]
        if m.get("targets"):
            lines += ["| target | workload | against | met | detail |", "|---|---|---|---|---|"]
            for t in m["targets"]:
                tgt = {k: v for k, v in t["target"].items() if v is not None and k != "workloads"}
                lines.append(f"| {tgt} | {t['workload']} | {t['vs']} | {'yes' if t['met'] else '**no**'} | {t['why']} |")
            lines.append("")
    return lines


def _plot(device, specs):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    series, workloads = {}, []
    for spec in specs:
        rec = _perf(device, spec)
        if rec is None:
            continue
        for w in rec["measurements"]["workloads"]:
            if w["name"] not in workloads:
                workloads.append(w["name"])
            for name, k in w["kernels"].items():
                if name == spec.name or name.startswith("sdpa_"):
                    # SDPA figures come from the latest phase's run that measured them
                    series.setdefault(name, {})[w["name"]] = (k["median"], k["tflops"])
    if not series:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(14, 4.8))
    width = 0.8 / len(series)
    for i, (name, vals) in enumerate(sorted(series.items())):
        xs = [j + i * width for j, wn in enumerate(workloads) if wn in vals]
        axes[0].bar(xs, [vals[wn][0] for wn in workloads if wn in vals], width, label=name)
        axes[1].bar(xs, [vals[wn][1] for wn in workloads if wn in vals], width, label=name)
    for ax, title in zip(axes, ("median time (us, log)", "TFLOP/s")):
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(workloads))])
        ax.set_xticklabels(workloads, rotation=30, ha="right", fontsize=8)
        ax.set_title(f"{device.name}: {title}")
    axes[0].set_yscale("log")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    out = device / "perf.png"
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def render_device(device, specs):
    lines = [f"## {device.name}", "", "### Gates", ""] + _gate_table(device, specs) + [""]
    plot = _plot(device, specs)
    if plot:
        lines += [f"![performance]({device.name}/{plot.name})", ""]
    lines += ["### Performance, each phase against the baselines measured in its own run", ""]
    lines += _perf_tables(device, specs)
    controls = device / "controls.json"
    if controls.is_file():
        from .controls import render_table
        rows = json.loads(controls.read_text())["rows"]
        matched = sum(1 for r in rows if r["match"])
        lines += ["### Negative controls", "", f"{matched} of {len(rows)} controls rejected by the expected gate "
                  "for the expected reason.", "", render_table(rows)]
    cal = device / "calibration.json"
    if cal.is_file():
        c = json.loads(cal.read_text())
        r, need = c["rates"], c["config"]["required"]
        lines += ["### Calibration of the verdicts", "",
                  f"- {c['config']['phase']} against itself, {len(r['self_verdicts'])} times: SAME or AMBIGUOUS "
                  f"{r['self_same_or_ambiguous_rate']:.0%} (required {need['self_same_or_ambiguous_rate']:.0%})",
                  f"- {c['config']['phase']} on {c['config']['heavier_heads']} heads (5% more work) against "
                  f"{c['config']['workload']['H']} heads: SLOWER {r['heavier_slower_rate']:.0%} (required "
                  f"{need['heavier_slower_rate']:.0%})", f"- status: {c['status']}", ""]
    return lines


def readme_table(specs):
    devices = _devices()
    lines = ["| phase | what it adds | evidence | " + HEADLINE + " TFLOP/s |", "|---|---|---|---|"]
    for spec in specs:
        cells = []
        for dev in devices:
            h = source_hash(spec)
            states = [evidence.read(dev / spec.name, g) for g in spec.gates]
            passed = sum(1 for s in states if s and s["status"] == "pass" and s["source_hash"] == h)
            cells.append(f"{dev.name}: {passed}/{len(spec.gates)} gates pass")
        tf = "-"
        for dev in devices:
            rec = _perf(dev, spec)
            for w in (rec["measurements"]["workloads"] if rec else []):
                if w["name"] == HEADLINE:
                    tf = f"{w['kernels'][spec.name]['tflops']:.0f}"
        lines.append(f"| [{spec.name}](phases/{spec.name}/) | {spec.data['description']} | "
                     f"{'; '.join(cells) or 'none yet'} ([evidence](evidence/README.md)) | {tf} |")
    return lines


def write_all():
    specs = [load_spec(d) for d in phase_dirs()]
    body = ["# Evidence", "", "Generated by `make report` from the JSON files beside this page; do not edit.",
            "A status marked (stale) was recorded for sources that have changed since.", ""]
    for dev in _devices():
        body += render_device(dev, specs)
    evidence.atomic_write(EVIDENCE / "README.md", "\n".join(body) + "\n")
    readme = ROOT / "README.md"
    if readme.is_file():
        text = readme.read_text()
        if MARK_START in text and MARK_END in text:
            new = re.sub(re.escape(MARK_START) + ".*?" + re.escape(MARK_END),
                         lambda _: MARK_START + "\n" + "\n".join(readme_table(specs)) + "\n" + MARK_END,
                         text, flags=re.S)
            if new != text:
                evidence.atomic_write(readme, new)
