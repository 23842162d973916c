"""Renders evidence/README.md (per device: gate table with wall times, performance against the
baselines measured in the same run with intervals, verdicts and margins, targets, sweep tables,
correctness coverage, controls, calibration, reproduction, plots) and the phase table in the
top-level README, from the evidence records alone."""
import re

from . import evidence, freshness
from .environment import nvcc_version
from .gates.controls import render
from .layout import EVIDENCE, ROOT, evidence_dir, phase_dirs
from .spec import GATES, load_spec

MARK_START, MARK_END = "<!-- phases:start -->", "<!-- phases:end -->"
HEADLINE = "b4_s4096_d128"


def _devices():
    return sorted(d for d in EVIDENCE.iterdir() if d.is_dir()) if EVIDENCE.is_dir() else []


def _rec(device, spec, gate):
    return evidence.read(evidence_dir(device.name, spec.dir) / f"{gate}.json")


def _fresh(rec, spec, device, toolchain):
    return rec is not None and freshness.staleness(rec, spec, device.name, toolchain) is None


def _gate_table(device, specs, toolchain):
    lines = ["| phase | " + " | ".join(GATES) + " |", "|---|" + "---|" * len(GATES)]
    for spec in specs:
        cells = []
        for g in GATES:
            if g not in spec.gates:
                cells.append("n/a")
                continue
            rec = _rec(device, spec, g)
            if rec is None:
                cells.append("-")
                continue
            cell = f"{evidence.status(rec)} ({rec['meta']['duration_s']:.0f} s)"
            cells.append(cell + ("" if _fresh(rec, spec, device, toolchain) else " (stale)"))
        lines.append(f"| [{spec.name}](../phases/{spec.name}/NOTES.md) | " + " | ".join(cells) + " |")
    return lines


VERDICT_FROM_BASELINE = {"FASTER": "slower", "SLOWER": "faster", "SAME": "same", "AMBIGUOUS": "ambiguous",
                         "UNRESOLVED": "unresolved"}


def _perf_tables(device, spec):
    rec = _rec(device, spec, "performance")
    if rec is None or "workloads" not in rec["derived"]:
        return []
    d = rec["derived"]
    lines = [f"#### {spec.name} ({d['status']}, {rec['meta']['finished']}, git {rec['meta']['git']['sha'][:10]}, "
             f"config {d.get('config')}, {d.get('processes')} processes)", "",
             "| workload | kernel | median us | graph us/call | TFLOP/s | of matmul ceiling | speedup of "
             f"{spec.name} [95% CI] | verdict | margin |", "|---|---|---|---|---|---|---|---|---|"]
    for w in d["workloads"]:
        for name, k in w["kernels"].items():
            comp = w["comparisons"].get(name)
            sp = f"{1 / comp['ratio']:.3f} [{1 / comp['ci'][1]:.3f}, {1 / comp['ci'][0]:.3f}]" if comp else "-"
            verdict = comp["verdict"] if comp else "-"
            frac = f"{k['frac_of_measured_matmul']:.0%}" if k.get("frac_of_measured_matmul") else "-"
            graph = f"{k['graph_per_call_us']:.1f}" if k.get("graph_per_call_us") else "-"
            margin = f"{comp['margin']:.2%}" if comp else "-"
            lines.append(f"| {w['name']} | {name} | {k['median']:.1f} | {graph} | {k['tflops']:.1f} | {frac} | {sp} | "
                         f"{verdict} | {margin} |")
    lines += ["", f"Speedup is the kernel's time over {spec.name}'s; the verdict is {spec.name} against that kernel "
                  "(FASTER: the whole interval beyond the margin).", ""]
    if d.get("targets"):
        lines += ["| target | workload | against | met | detail |", "|---|---|---|---|---|"]
        for t in d["targets"]:
            tgt = {k: v for k, v in t["target"].items() if v is not None and k != "workloads"}
            lines.append(f"| {tgt} | {t['workload']} | {t['vs'] or 'its own figure'} | {'yes' if t['met'] else '**no**'} | {t['why']} |")
        lines.append("")
    lines += _untimed_lines(rec)
    if d.get("sweep"):
        names = [w["name"] for w in d["workloads"]]
        lines += ["Sweep (TFLOP/s, every configuration that passed launch, sanity and correctness; "
                  f"winner {d['config']}):", "", "| config | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
        for cfg, row in d["sweep"].items():
            lines.append(f"| {cfg} | " + " | ".join(f"{row[n]['tflops']:.0f}" if n in row else "-" for n in names) + " |")
        lines.append("")
    return lines


def _untimed_lines(rec):
    """One paragraph on the untimed value checks (ladder/untimed.py) of the record's process 0:
    how many, refused, the worst output and log-sum-exp error as a fraction of the tolerance
    the gate judged it by, and the problems drawn for the run."""
    from .gates.performance import lse_limit, recheck_tolerance
    rows = (rec["raw"].get("processes") or [{}])[0].get("untimed")
    if not rows:
        return []
    timing, lse_tol = rec["inputs"]["section"]["timing"], rec["inputs"]["section"].get("lse_tolerance")
    valued = [r for r in rows if "err" in r]
    worst = max((r["err"] / recheck_tolerance(r, timing) for r in valued), default=None)
    worst_lse = max((r["lse_err"] / lse_limit(r, lse_tol) for r in valued if "lse_err" in r and lse_tol),
                    default=None)
    drawn = [f"({r['B']},{r['H']},{r['S_q']},{r['S_k']},{r['D']}) {r['dtype']}{' causal' if r['causal'] else ''} "
             f"{r['layout']}" for r in rows if r.get("drawn")]
    fig = (f"worst output error {worst:.2f} of its tolerance" if worst is not None else "none valued") + \
          (f", worst log-sum-exp error {worst_lse:.3f} of its tolerance" if worst_lse is not None else "")
    seed = rec["raw"]["processes"][0].get("draw_seed")
    return [f"Untimed value checks (ladder/untimed.py): {len(rows)} problems, {len(rows) - len(valued)} refused; "
            f"{fig}. Drawn for this run (seed {seed}): {'; '.join(drawn) or 'none'}.", ""]


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(plt, fig, out):
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def _phase_kernels(device, specs):
    """(workload, kernel name, kernel figures) from each phase's performance evidence: the phase
    itself and the SDPA backends (a later phase's SDPA figures come after an earlier one's)."""
    for spec in specs:
        rec = _rec(device, spec, "performance")
        for w in (rec["derived"].get("workloads", []) if rec else []):
            for name, k in w["kernels"].items():
                if name == spec.name or name.startswith("sdpa_"):
                    yield w, name, k


def _plot(device, specs):
    plt = _pyplot()
    series, workloads = {}, []
    for w, name, k in _phase_kernels(device, specs):
        if w["name"] not in workloads:
            workloads.append(w["name"])
        series.setdefault(name, {})[w["name"]] = k["tflops"]
    if not series:
        return None
    fig, ax = plt.subplots(figsize=(12, 4.5))
    width = 0.8 / len(series)
    for i, (name, vals) in enumerate(sorted(series.items())):
        xs = [j + i * width for j, wn in enumerate(workloads) if wn in vals]
        ax.bar(xs, [vals[wn] for wn in workloads if wn in vals], width, label=name)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(workloads))])
    ax.set_xticklabels(workloads, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("TFLOP/s")
    ax.set_title(f"{device.name}: TFLOP/s per workload (SDPA from the latest phase's run)")
    ax.legend(fontsize=8)
    return _save(plt, fig, device / "perf.png")


def _latency_plot(device, specs):
    """The seed workload as a latency chart: event median and CUDA-graph time per call, for
    every phase and SDPA backend (SDPA from the latest phase's run)."""
    plt = _pyplot()
    rows = {name: (k["median"], k.get("graph_per_call_us"))
            for w, name, k in _phase_kernels(device, specs) if w["name"] == "seed"}
    if not rows:
        return None
    names = sorted(rows, key=lambda n: rows[n][0])
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(names) + 1.2))
    y = range(len(names))
    ax.barh([i + 0.2 for i in y], [rows[n][0] for n in names], 0.4, label="event median (L2 flushed, one call)")
    ax.barh([i - 0.2 for i in y], [rows[n][1] or 0 for n in names], 0.4, label="CUDA graph, per call (back to back)")
    ax.set_yticks(list(y))
    ax.set_yticklabels(names)
    ax.set_xlabel("us per call at (1, 8, 512, 64)")
    ax.set_title(f"{device.name}: seed workload latency")
    ax.legend(fontsize=8)
    return _save(plt, fig, device / "seed_latency.png")


def _seqlen_plot(device):
    """TFLOP/s against sequence length, one panel per head dim and mask, a line per kernel."""
    rec = evidence.read(device / "seqlen.json")
    if rec is None or "workloads" not in rec["derived"]:
        return None
    plt = _pyplot()
    ws = list(rec["derived"]["workloads"].values())
    panels = sorted({(w["workload"]["D"], w["workload"]["causal"]) for w in ws})
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4), squeeze=False)
    names = sorted({n for w in ws for n in w["kernels"]})
    for ax, (D, causal) in zip(axes[0], panels):
        sel = sorted((w for w in ws if (w["workload"]["D"], w["workload"]["causal"]) == (D, causal)),
                     key=lambda w: w["workload"]["S_q"])
        xs = [w["workload"]["S_q"] for w in sel]
        for n in names:
            ax.plot(xs, [w["kernels"].get(n, {}).get("tflops") for w in sel], marker="o", ms=3, label=n)
        ax.set_xscale("log", base=2)
        ax.set_xticks(xs)
        ax.set_xticklabels([f"{x // 1024}k" if x >= 1024 else str(x) for x in xs], fontsize=8)
        ax.set_title(f"head dim {D}, {'causal' if causal else 'non-causal'}", fontsize=9)
        ax.set_xlabel("sequence length (16k tokens per batch)")
    axes[0][0].set_ylabel("TFLOP/s")
    axes[0][-1].legend(fontsize=7)
    fig.suptitle(f"{device.name}: forward TFLOP/s against sequence length", fontsize=10)
    return _save(plt, fig, device / "seqlen.png")


def _kinds(device):
    lines = []
    c = evidence.read(device / "controls.json")
    if c:
        d = c["derived"]
        aside = (f" {d['stale']} more read from stale records only, {d['stale_matched_when_recorded']} of them "
                 "rejected as expected when recorded." if d.get("stale") else "")
        lines += ["### Negative controls", "", f"{d['matched']} of {len(d['rows'])} controls rejected by the expected "
                  f"gate for the expected reason ({d['status']}).{aside}", "", render(d["rows"])]
    cal = evidence.read(device / "calibration.json")
    if cal and "workloads" in cal["derived"]:
        lines += ["### Calibration of the verdicts", "", f"{cal['derived']['status']}: {cal['derived']['reason']}", "",
                  "| workload | pair | measured shift | n | FASTER | SLOWER | SAME | AMBIGUOUS | UNRESOLVED | rate [95% CI] |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for wn, w in cal["derived"]["workloads"].items():
            for name, r in w["rates"].items():
                c_ = r["counts"]
                what = "false FASTER+SLOWER" if r["kind"] == "aa" else "found"
                lines.append(f"| {wn} | {name} | {w['true_shift'][name]:+.2%} | {r['n']} | {c_['FASTER']} | "
                             f"{c_['SLOWER']} | {c_['SAME']} | {c_['AMBIGUOUS']} | {c_['UNRESOLVED']} | {what} "
                             f"{r['rate']:.1%} [{r['ci'][0]:.1%}, {r['ci'][1]:.1%}] |")
        lines.append("")
    rep = evidence.read(device / "reproduce.json")
    if rep:
        lines += ["### Reproduction", "", f"`make reproduce`: {rep['derived']['status']}: {rep['derived']['reason']}", ""]
    return lines


def render_device(device, specs, toolchain):
    lines = [f"## {device.name}", "", "### Gates (status, wall time)", ""] + _gate_table(device, specs, toolchain) + [""]
    for plot, alt in ((_seqlen_plot(device), "TFLOP/s against sequence length"), (_plot(device, specs), "TFLOP/s"),
                      (_latency_plot(device, specs), "seed latency")):
        if plot:
            lines += [f"![{alt}]({device.name}/{plot.name})", ""]
    lines += ["### Performance, each phase against the baselines measured in its own run", ""]
    for spec in specs:
        lines += _perf_tables(device, spec)
    return lines + _kinds(device)


def readme_table(specs, toolchain):
    devices = _devices()
    head = "| phase | what it adds | evidence | " + " | ".join(f"{HEADLINE} TFLOP/s ({d.name})" for d in devices) + " |"
    lines = [head, "|---|---|---|" + "---|" * len(devices)]
    for spec in specs:
        cells, tfs = [], []
        for dev in devices:
            recs = [_rec(dev, spec, g) for g in spec.gates]
            passed = sum(1 for r in recs if evidence.status(r) == "pass" and _fresh(r, spec, dev, toolchain))
            stale = sum(1 for r in recs if evidence.status(r) == "pass" and not _fresh(r, spec, dev, toolchain))
            more = f" ({stale} more passed, stale: recorded with older sources)" if stale else ""
            cells.append(f"{dev.name}: {passed}/{len(spec.gates)} gates pass{more}")
            perf = _rec(dev, spec, "performance")
            tf = "-"
            for w in (perf["derived"].get("workloads", []) if perf else []):
                if w["name"] == HEADLINE:
                    tf = f"{w['kernels'][spec.name]['tflops']:.0f}"
            tfs.append(tf)
        lines.append(f"| [{spec.name}](phases/{spec.name}/) | {spec.data['description']} | "
                     f"{'; '.join(cells) or 'none yet'} ([evidence](evidence/README.md)) | " + " | ".join(tfs) + " |")
    return lines


def write_all():
    specs = [load_spec(d) for d in phase_dirs()]
    toolchain = nvcc_version()
    body = ["# Evidence", "", "Generated by `make report` from the JSON records beside this page; do not edit.",
            "A status marked (stale) was recorded for inputs that have changed since.", ""]
    for dev in _devices():
        body += render_device(dev, specs, toolchain)
    evidence.atomic_write(EVIDENCE / "README.md", "\n".join(body) + "\n")
    readme = ROOT / "README.md"
    if readme.is_file():
        text = readme.read_text()
        if MARK_START in text and MARK_END in text:
            new = re.sub(re.escape(MARK_START) + ".*?" + re.escape(MARK_END),
                         lambda _: MARK_START + "\n" + "\n".join(readme_table(specs, toolchain)) + "\n" + MARK_END,
                         text, flags=re.S)
            if new != text:
                evidence.atomic_write(readme, new)
