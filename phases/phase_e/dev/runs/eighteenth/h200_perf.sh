#!/bin/bash
# H200 performance re-record in pieces that fit one call: build and performance of PHASES, one
# at a time, then `reproduce --only phase_e` when REPRODUCE=1. Tars the H200 folder after each
# step (calibration.json left out). Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
PHASES=${PHASES:-phase_a phase_b phase_c phase_d phase_e}
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
pack() { tar czf "$OUT/evidence_h200.tgz" --exclude=calibration.json evidence/h200; }
for ph in $PHASES; do
  python3 -m ladder run $ph --gate build --gate performance > "$L/${ph}_perf.log" 2>&1
  echo "$ph build+perf $((SECONDS - t0)) s" >> "$L/times.txt"; pack
done
if [ "${REPRODUCE:-0}" = 1 ]; then
  python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1
  echo "reproduce $((SECONDS - t0)) s" >> "$L/times.txt"; pack
fi
tail -n 2 "$L"/*.log "$L/times.txt"
