"""The verdict on calls that share something with other calls (ladder/gpu/sharing.py observes
them): two calls at once on two streams, another problem at the addresses of earlier calls, and
one row of the inputs changed in place. One rule for the two gates that run the checks: sanity,
at every shape, and performance, again at each timed workload once the problem is hot (its
processes' observations pooled first). Each function returns problem texts that start with what
was done, so that a gate can put where it was done in front."""

MAX_UNCHANGED = 0.5   # more of the output elements a change must move left unchanged than this: cached


def concurrency_problems(conc):
    """conc: {mismatches, unwritten, trials} over two-stream calls, or None (not run)."""
    if not conc or not (conc["mismatches"] or conc["unwritten"]):
        return []
    return [f"two concurrent calls on two streams (different inputs): {conc['mismatches']} elements differ from "
            f"their eager outputs, {conc['unwritten']} never written, over {conc['trials']} trials (state shared "
            "between calls?)"]


def same_address_problems(rows, own):
    """rows: one per variant ({variant, elements, mismatches, lse_mismatches, unwritten}); own:
    whose calls' addresses the variants reuse ("shape", "workload")."""
    out = []
    for row in rows or []:
        lse = row.get("lse_mismatches", 0)  # absent in records made before o and lse stayed put (stale)
        where = f"{row['variant']} at the addresses of the {own}'s own calls"
        if row["mismatches"] or lse:
            out.append(f"{where}: {row['mismatches']} of {row['elements']} output elements"
                       + (f" and {lse} log-sum-exp values" if lse else "") + " differ from the same call on copies "
                       "at other addresses (a plan, such as tensor maps, keyed on the addresses alone?)")
        if row["unwritten"]:
            out.append(f"{where}: {row['unwritten']} output elements never written over that call and the same call "
                       "at other addresses (o there is a view of a larger buffer: its strides not honoured?)")
    return out


def single_row_problems(rows):
    """rows: one per tensor changed ({tensor, at, moved, unchanged} or {tensor, skipped})."""
    return [f"a single-row change of {r['tensor']} at (b,h,row)={tuple(r['at'])}: {r['unchanged']} of the "
            f"{r['moved']} output elements it moves are unchanged (a cache keyed on a sample of the inputs' "
            "contents?)"
            for r in rows or [] if "skipped" not in r and r["unchanged"] > MAX_UNCHANGED * r["moved"]]


def pooled_concurrency(observations):
    """Several processes' concurrency observations as one (None when none ran)."""
    obs = [c for c in observations if c]
    if not obs:
        return None
    return {k: sum(c[k] for c in obs) for k in ("mismatches", "unwritten", "trials")}


def pooled_same_addresses(row_lists):
    """Several processes' same-address rows, summed per variant (first-seen order)."""
    pooled = {}
    for rows in row_lists:
        for r in rows or []:
            p = pooled.setdefault(r["variant"], {"variant": r["variant"], "elements": r["elements"], "mismatches": 0,
                                                 "lse_mismatches": 0, "unwritten": 0})
            for k in ("mismatches", "lse_mismatches", "unwritten"):
                p[k] += r.get(k, 0)
    return list(pooled.values())
