#!/bin/bash
# Device call (H200): phase_e through every gate on this session's kernel. The H200's other
# phases stay stale (their untimed gates predate harness changes; no device time for them).
# Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
L="$OUT/logs"; mkdir -p "$L"
t0=$SECONDS
python3 -m ladder run phase_e --gate build --gate launch --gate sanity --gate correctness > "$L/phase_e_untimed.log" 2>&1
echo "untimed $((SECONDS - t0)) s" >> "$L/times.txt"
python3 -m ladder run phase_e --gate performance --gate profile > "$L/phase_e_perf.log" 2>&1
echo "perf+profile $((SECONDS - t0)) s" >> "$L/times.txt"
tail -n 4 "$L"/*.log "$L/times.txt"
tar czf "$OUT/evidence_h200.tgz" evidence/h200
