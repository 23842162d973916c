#!/bin/bash
# Device call: every gate of phase_e (`ladder run phase_e`), evidence kept; the phase's folder
# comes back as one tarball even if the run is cut off at LIMIT seconds. Needs
# LADDER_GIT_SHA/LADDER_GIT_DIRTY.
#   LIMIT  default 570
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
# The device folder: the one whose phase_e record is newest after the run.
timeout "${LIMIT:-570}" python3 -m ladder run phase_e > "$L/phase_e.log" 2>&1
echo "phase_e rc $? $((SECONDS - t0)) s" >> "$L/times.txt"
d=$(ls -t evidence/*/phase_e/*.json | head -1 | cut -d/ -f2)
tar czf "$OUT/evidence_e.tgz" "evidence/$d/phase_e"
tail -n 12 "$L/phase_e.log" | cut -c1-1500; cat "$L/times.txt"
