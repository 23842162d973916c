"""The confinement rule, shared by the sanity gate (once per sanity shape) and the performance
gate (once per process and timed workload): a call runs on the caller's stream alone and leaves
the process's and the stream's settings as they were. Reads the observations of
ladder/gpu/confinement.py; a reading that failed fails closed."""


def _read_errors(state, when):
    return [f"could not read the device's {key} {when} (driver error {v['error']})" for key, v in state.items()
            if isinstance(v, dict) and "error" in v]


def confinement_problems(c, start):
    """c: one shape's confinement observation (ladder/gpu/confinement.py); start: the process's
    device state before the kernel's library was loaded. The call must run on the caller's
    stream alone and leave the context and the stream as they were."""
    if "error" in c:
        return [f"the confinement check could not run: {c['error']}"]
    p = _read_errors(start, "at the start") + _read_errors(c["before"], "before the call") + \
        _read_errors(c["after"], "after the call")
    if p:
        return p  # fail closed: what was not read cannot be compared
    before, after = c["before"], c["after"]
    by_call = [key for key, was in before.items() if after.get(key) != was]
    for key in by_call:
        p.append(f"the call changed the {key.replace('_', ' ')}: {before[key]} -> {after.get(key)} (a call may not "
                 "change the process's or the stream's settings)")
    for key, was in start.items():
        if key not in by_call and after.get(key) != was:
            p.append(f"the {key.replace('_', ' ')} is {after.get(key)}, was {was} before the kernel's library was "
                     "loaded (the library or an earlier call changed it)")
    ops = c["activities"]
    markers = [a for a in ops if c["marker"] in a["name"]]
    streams = {a["stream"] for a in markers}
    if len(markers) != 2 or len(streams) != 1:
        p.append(f"the CUDA profiler saw {len(markers)} of the call's 2 marker kernels, on {len(streams)} stream(s): "
                 "where the call's work ran is not known")
        return p
    caller = streams.pop()
    if not any(a["stream"] == caller and a not in markers for a in ops):
        p.append("the CUDA profiler saw no work of the call on the caller's stream")
    stray = [a for a in ops if a["stream"] != caller]
    if stray:
        names = "; ".join(f"{a['kind']} {a['name'][:60]} on stream {a['stream']}" for a in stray[:3])
        p.append(f"{len(stray)} GPU operation(s) ran on a stream other than the caller's ({caller}): {names}. "
                 "A call runs on its stream alone: work elsewhere runs outside its window, beside whatever "
                 "the caller runs next")
    return p
