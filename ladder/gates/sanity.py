"""Gate 3, sanity: the hygiene checks of ladder/gpu/sanity_body.py in a watched child per
configuration, then compute-sanitizer (memcheck, racecheck, ...) on the standalone driver at a
small shape, where torch is not in the way and reads past a tensor's exact end are seen."""
import re

from ..build.buildfile import artifacts
from ..child import run_watched
from ..spec import shape_label
from ..tools import find
from . import Result, run_per_config, summarize_failures

_ERRORS = re.compile(r"ERROR SUMMARY: (\d+) error")
_HAZARDS = re.compile(r"RACECHECK SUMMARY: (\d+) hazard")


def sanitizer_command(tool, driver, shape):
    args = [str(shape[k]) for k in ("B", "H", "S_q", "S_k", "D")] + [shape["dtype"], str(int(shape["causal"])), "1"]
    # memcheck: a padding buffer after every allocation, so a read just past one tensor's end is
    # flagged even where the allocator put the next tensor right behind it (the oob_read
    # control passed memcheck without it: K's over-read landed in V).
    extra = {"racecheck": ["--racecheck-report", "hazard"], "memcheck": ["--padding", "512"]}.get(tool, [])
    return [find("compute-sanitizer"), "--tool", tool, "--error-exitcode", "99", "--print-limit", "10",
            *extra, str(driver), *args]


def parse_sanitizer(tool, outcome):
    """(clean, findings line)."""
    text = outcome.output
    errors = sum(int(n) for n in _ERRORS.findall(text))
    hazards = sum(int(n) for n in _HAZARDS.findall(text))
    if outcome.timed_out:
        return False, "timed out"
    summary_seen = bool(_ERRORS.search(text) or _HAZARDS.search(text))
    if errors or hazards or outcome.returncode != 0 or not summary_seen:
        first = next((l.strip() for l in text.splitlines()
                      if l.startswith("=========") and ("Invalid" in l or "hazard" in l.lower() or "Error" in l)),
                     outcome.tail(2).replace("\n", " | "))
        return False, f"{errors} error(s), {hazards} hazard(s), exit {outcome.returncode}: {first}"
    return True, "clean"


def run(ctx):
    spec = ctx.spec
    section = spec.section("sanity")
    result, failures = Result("pass", ""), []
    for name, delivered in run_per_config(spec, "sanity", section["timeout_s"], result, failures):
        driver = artifacts(spec, name)["driver"]
        entry = {"shapes": delivered["shapes"]}
        for row in entry["shapes"]:
            failures += [f"{name} at {shape_label(row['shape'])}: {p}" for p in row["problems"]]
        san = section["sanitizer"]
        entry["sanitizer"] = {}
        for tool in san["tools"]:
            cmd = sanitizer_command(tool, driver, san["shape"])
            out = run_watched(cmd, san["timeout_s"])
            clean, line = parse_sanitizer(tool, out)
            entry["sanitizer"][tool] = {"clean": clean, "findings": line, "shape": san["shape"]}
            result.log.append(f"== config {name}: compute-sanitizer {tool}\n$ {' '.join(cmd)}\n{out.output}")
            if not clean:
                failures.append(f"{name}: compute-sanitizer {tool}: {line}")
        result.measurements[name] = entry
    if failures:
        result.status, result.reason = "fail", summarize_failures(failures)
    else:
        result.reason = (f"{len(section['shapes'])} shape(s): fully written, finite, inputs intact, stream-ordered, "
                         f"repeatable, no caching, zero-query exact; {', '.join(section['sanitizer']['tools'])} clean")
    return result
