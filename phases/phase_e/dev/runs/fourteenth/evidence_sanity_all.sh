#!/bin/bash
# Device call: the build and sanity gates of every phase, side by side (a sanity-only harness or
# floor change stales nothing else), and on the H100 `ladder controls --resume` beside them.
# The device's evidence folder is tarred at the end. Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
#   PHASES    default: every phase
#   CONTROLS  1 (default) or 0 (the H200 runs no controls)
set -u
PHASES=${PHASES:-phase_a phase_b phase_c phase_d phase_e}
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
pids=()
for ph in $PHASES; do
  python3 -m ladder run $ph --gate build --gate sanity > "$L/${ph}_sanity.log" 2>&1 &
  pids+=($!)
done
if [ "${CONTROLS:-1}" = 1 ]; then python3 -m ladder controls --resume > "$L/controls.log" 2>&1; fi
wait "${pids[@]}"
echo "build+sanity ($PHASES) and controls=${CONTROLS:-1}: $((SECONDS - t0)) s" >> "$L/times.txt"
dev=$(ls -t evidence/*/phase_a/sanity.json | head -1 | cut -d/ -f2)  # the device these runs wrote
tar czf "$OUT/evidence_sanity.tgz" --exclude=calibration.json "evidence/$dev"
tail -n 3 "$L"/*.log "$L/times.txt"
