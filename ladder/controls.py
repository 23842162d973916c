"""Negative controls: kernels broken on purpose, each of which one named gate must reject for a
named reason (tests/controls/<name>/expect.yaml). A control runs through the ladder up to its
expected gate; the table records expected against observed gate and reason for every control."""
import json
import os
import re
from pathlib import Path

import yaml

from . import evidence, ladder
from .environment import cuda_probe, device_name
from .errors import SpecError
from .build.buildfile import prebuild
from .layout import EVIDENCE, RUN_LOCAL, control_dirs
from .schema import Invalid, Map, Str
from .spec import GATES, load_spec

EXPECT = Map({"gate": Str(choices=GATES), "reason": Str(), "defect": Str()})
BUILD_GATE = "build"


def load_expect(control_dir):
    path = Path(control_dir) / "expect.yaml"
    try:
        data = EXPECT.validate(yaml.safe_load(path.read_text()), "")
        re.compile(data["reason"])
    except FileNotFoundError:
        raise SpecError(path, None, "missing; a control needs expect.yaml with gate, reason, defect") from None
    except Invalid as e:
        raise SpecError(path, e.key, e.message) from None
    except re.error as e:
        raise SpecError(path, "reason", f"not a valid regular expression: {e}") from None
    return data


def run_control(control_dir, echo=print):
    spec, expect = load_spec(control_dir), load_expect(control_dir)
    upto = spec.gates[: spec.gates.index(expect["gate"]) + 1]
    outcomes = ladder.run(spec, gates=upto, echo=echo)
    first_bad = next(((g, s, r) for g, s, r in outcomes if s != "pass"), None)
    row = {"control": spec.name, "defect": expect["defect"], "expected_gate": expect["gate"],
           "expected_reason": expect["reason"]}
    if first_bad is None:
        row.update(observed_gate=None, observed_status="pass", reason=f"passed every gate through {upto[-1]}",
                   match=False)
    else:
        gate, status, reason = first_bad
        matched = gate == expect["gate"] and status == "fail" and bool(re.search(expect["reason"], reason, re.I))
        row.update(observed_gate=gate, observed_status=status, reason=reason, match=matched)
        if status == "blocked":
            row["match"] = None
    return row


def render_table(rows):
    """Markdown: control x expected gate x observed gate x reason."""
    def cell(text):
        return " ".join(str(text).split()).replace("|", "\\|")

    lines = ["| control | defect | expected gate | observed gate | match | reason |", "|---|---|---|---|---|---|"]
    for r in rows:
        mark = {True: "yes", False: "**NO**", None: "blocked"}[r["match"]]
        lines.append(f"| {r['control']} | {cell(r['defect'])} | {r['expected_gate']} | "
                     f"{r['observed_gate'] or '-'} ({r['observed_status']}) | {mark} | {cell(r['reason'])} |")
    return "\n".join(lines) + "\n"


def write_table(rows, directory):
    evidence.atomic_write(Path(directory) / "controls.json",
                          json.dumps({"generated": evidence.now(), "rows": rows}, indent=1) + "\n")
    evidence.atomic_write(Path(directory) / "controls.md", render_table(rows))


def main(only=None, build_only=False):
    dirs = [d for d in control_dirs() if not only or d.name in only]
    if build_only:
        dirs = [d for d in dirs if load_expect(d)["gate"] == BUILD_GATE]
    prebuild([load_spec(d) for d in dirs])
    rows = [run_control(d) for d in dirs]
    device = device_name()
    out = (EVIDENCE / device) if cuda_probe()["available"] else (RUN_LOCAL / "cpu")
    if only or build_only:
        out = out / "controls" / "partial"
    write_table(rows, out)
    for r in rows:
        print(f"control {r['control']}: expected {r['expected_gate']}, observed {r['observed_gate']} "
              f"({r['observed_status']}) -> {'match' if r['match'] else 'blocked' if r['match'] is None else 'MISMATCH'}")
    require_gpu = os.environ.get("REQUIRE_GPU") == "1"
    bad = [r for r in rows if r["match"] is False or (r["match"] is None and require_gpu)]
    return 1 if bad else 0
