from ladder import untimed


def _w(name, B, H, S, D, dtype="fp16", causal=False):
    return {"name": name, "B": B, "H": H, "S_q": S, "S_k": S, "D": D, "dtype": dtype, "causal": causal}


def test_every_dtype_mask_and_layout_at_each_timed_size_the_timed_ones_too():
    # the timed combination too: its output is re-checked while timed, its log-sum-exp nowhere else
    ws = [_w("seed", 1, 8, 512, 64), _w("big", 8, 16, 2048, 64), _w("big_causal", 8, 16, 2048, 64, causal=True)]
    got = {(p["S_q"], dtype, p["causal"]): layouts for p in untimed.problems(ws) for dtype, layouts in p["layouts"].items()}
    everything = ["contiguous", "bshd", "padded"]
    assert got == {(s, dtype, causal): everything for s in (512, 2048) for dtype in ("fp16", "bf16")
                   for causal in (False, True)}
    assert [(p["S_q"], p["causal"]) for p in untimed.problems(ws)] == [(512, False), (512, True), (2048, False), (2048, True)]


def test_drawn_problems_are_large_bounded_and_vary_with_the_seed():
    draws = [untimed.drawn(seed) for seed in range(200)]
    assert draws[0] == untimed.drawn(0)  # the seed the raw data records gives the same problems
    flat = [p for d in draws for p in d]
    assert all(len(d) == untimed.DRAWN for d in draws)
    for p in flat:
        rows = p["B"] * p["H"] * p["S_q"]
        assert untimed.MIN_LEN <= p["S_k"] <= untimed.MAX_LEN and 1 <= p["S_q"] <= untimed.MAX_LEN
        assert p["S_q"] >= min(untimed.MIN_LEN, untimed.MAX_HEAD_SCORES // p["S_k"])
        assert p["S_q"] * p["S_k"] <= untimed.MAX_HEAD_SCORES  # one head's float64 scores fit the reference
        assert rows >= min(untimed.MIN_ROWS, untimed.MAX_SCORES // p["S_k"]) // 2
        assert rows * p["S_k"] <= untimed.MAX_SCORES
        assert len(p["layouts"]) == 1 and len(next(iter(p["layouts"].values()))) == 1
    # every dtype, mask, layout and head dim comes up, and no two draws of a run repeat a size
    assert {next(iter(p["layouts"])) for p in flat} == {"fp16", "bf16"}
    assert {p["causal"] for p in flat} == {False, True} and {p["D"] for p in flat} == {64, 128}
    assert {next(iter(p["layouts"].values()))[0] for p in flat} == {"contiguous", "bshd", "padded"}
    assert len({(p["B"], p["H"], p["S_q"], p["S_k"]) for p in flat}) > 0.95 * len(flat)
    # long rows are common, many queries against them too: the regime no other check values
    long_rows = [p for p in flat if p["S_k"] > 8192]
    assert len(long_rows) > 0.3 * len(flat) and max(p["S_k"] for p in flat) > 50000
    assert all(p["B"] * p["H"] * p["S_q"] >= 8192 for p in long_rows)
    assert max(p["S_q"] for p in flat) > 16384  # long query counts against short rows as well
