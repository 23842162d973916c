#!/bin/bash
# Device call: phase_e through every gate, with the controls that are stale re-run beside its
# untimed gates; performance and profile alone afterwards. Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
L="$OUT/logs"; mkdir -p "$L"
python3 -m ladder run phase_e --gate build --gate launch --gate sanity --gate correctness > "$L/phase_e_untimed.log" 2>&1 &
e=$!
python3 -m ladder controls --resume > "$L/controls.log" 2>&1
wait $e
python3 -m ladder run phase_e --gate performance --gate profile > "$L/phase_e_perf.log" 2>&1
tail -n 5 "$L"/*.log
tar czf "$OUT/evidence_e.tgz" --exclude=calibration.json evidence/h100-80gb-hbm3
