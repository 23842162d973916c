#!/bin/bash
# Device call (H100), after phase_e's own gates were re-recorded: what else hashes phase_e's
# sources, namely the controls built from its kernel (`controls --resume` re-runs stale ones),
# `reproduce --only phase_e`, and the seqlen chart. Evidence kept: the whole device folder comes
# back; take from it controls/, controls.json, reproduce*, seqlen* only. Needs LADDER_GIT_SHA.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
python3 -m ladder controls --resume > "$L/controls.log" 2>&1; echo "controls $((SECONDS - t0)) s" >> "$L/times.txt"
python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1; echo "reproduce $((SECONDS - t0)) s" >> "$L/times.txt"
python3 -m ladder seqlen > "$L/seqlen.log" 2>&1; echo "seqlen $((SECONDS - t0)) s" >> "$L/times.txt"
d=$(ls -t evidence/*/phase_e/*.json | head -1 | cut -d/ -f2)
tar czf "$OUT/evidence_after.tgz" "evidence/$d"
tail -n 4 "$L"/*.log | cut -c1-600; cat "$L/times.txt"
