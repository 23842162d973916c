#!/bin/bash
# Device call (H200): every phase through every gate, so that no H200 record is stale (phases
# a-c predate harness changes, d and e kernel changes). The untimed gates of all phases run side
# by side; then performance and profile one phase at a time, phase_d before phase_e (phase_e's
# gate times phase_d's recorded winner). No controls, seqlen or reproduce on this machine. The
# evidence is tarred after each step, so a cut-off call still returns what finished. Needs
# LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
PHASES=${PHASES:-phase_a phase_b phase_c phase_d phase_e}
L="$OUT/logs"; mkdir -p "$L"
pack() { tar czf "$OUT/evidence_h200.tgz" evidence/h200; }
t0=$SECONDS
pids=()
for ph in $PHASES; do
  python3 -m ladder run $ph --gate build --gate launch --gate sanity --gate correctness > "$L/${ph}_untimed.log" 2>&1 &
  pids+=($!)
done
wait "${pids[@]}"
echo "untimed ($PHASES) $((SECONDS - t0)) s" >> "$L/times.txt"; pack
for ph in $PHASES; do
  python3 -m ladder run $ph --gate performance --gate profile > "$L/${ph}_perf.log" 2>&1
  echo "$ph perf+profile $((SECONDS - t0)) s" >> "$L/times.txt"; pack
done
tail -n 3 "$L"/*.log "$L/times.txt"
