"""Warp-stall samples of one kernel, summed by SASS opcode, from an ncu source-page CSV
(`ncu --section SourceCounters --page source --print-source sass --csv ...`; pipes.py runs the
shapes). A dev tool (NOTES.md, "Where the stalls are"):

    python3 phases/phase_e/dev/stalls_by_opcode.py FILE.csv [--top N]
"""
import argparse
import collections
import csv
import io
import signal

# ncu's per-instruction stall columns, in the order printed (short heading, column).
STALLS = (("wait", "stall_wait"), ("sel", "stall_selected"), ("notsel", "stall_not_selected"),
          ("longsb", "stall_long_sb"), ("disp", "stall_dispatch"), ("bar", "stall_barrier"),
          ("mio", "stall_mio"), ("shsb", "stall_short_sb"), ("math", "stall_math"))


def opcode(sass):
    """'@!P0 HGMMA.64x128x16.F32 R24, ...' -> 'HGMMA' (predicate and modifiers dropped)."""
    words = sass.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0] if words else "?"


def by_opcode(text):
    rows = list(csv.reader(io.StringIO(text[text.index('"Address"'):])))  # skip ncu's preamble
    col = {h: k for k, h in enumerate(rows[0])}
    agg = collections.defaultdict(collections.Counter)
    for r in rows[1:]:
        if len(r) != len(rows[0]):
            continue
        a = agg[opcode(r[col["Source"]])]
        a["n"] += 1
        a["executed"] += int(r[col["Instructions Executed"]])
        a["all"] += int(r[col["Warp Stall Sampling (All Samples)"]])
        for _, name in STALLS:
            a[name] += int(r[col[name]])
    return agg


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=22)
    a = ap.parse_args()
    agg = by_opcode(open(a.csv).read())
    total = sum(x["all"] for x in agg.values())
    print(f"{'op':10s}{'n':>4s} {'ex(M)':>7s} {'all%':>5s} " + " ".join(f"{h:>6s}" for h, _ in STALLS))
    for op, x in sorted(agg.items(), key=lambda kv: -kv[1]["all"])[:a.top]:
        print(f"{op:10s}{x['n']:4d} {x['executed'] / 1e6:7.2f} {100 * x['all'] / total:5.1f} "
              + " ".join(f"{x[name]:6d}" for _, name in STALLS))


if __name__ == "__main__":
    main()
