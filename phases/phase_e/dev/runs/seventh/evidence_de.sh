#!/bin/bash
# Device call: phase_d and phase_e through every gate (both phases' kernels changed): their untimed
# gates side by side with `ladder controls --resume`, then performance and profile one phase at a
# time (phase_d first: phase_e's performance gate times phase_d's recorded winner). The evidence
# is tarred after each step, so a cut-off call still returns what finished.
# Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
L="$OUT/logs"; mkdir -p "$L"
pack() { tar czf "$OUT/evidence.tgz" --exclude=calibration.json evidence/h100-80gb-hbm3; }
t0=$SECONDS
python3 -m ladder run phase_d --gate build --gate launch --gate sanity --gate correctness > "$L/phase_d_untimed.log" 2>&1 &
d=$!
python3 -m ladder run phase_e --gate build --gate launch --gate sanity --gate correctness > "$L/phase_e_untimed.log" 2>&1 &
e=$!
python3 -m ladder controls --resume > "$L/controls.log" 2>&1
wait $d $e
echo "untimed d, e + controls $((SECONDS - t0)) s" >> "$L/times.txt"; pack
for ph in phase_d phase_e; do
  python3 -m ladder run $ph --gate performance --gate profile > "$L/${ph}_perf.log" 2>&1
  echo "$ph perf+profile $((SECONDS - t0)) s" >> "$L/times.txt"; pack
done
tail -n 4 "$L"/*.log "$L/times.txt"
