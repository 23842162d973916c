#!/bin/bash
# Twentieth session's device calls (harness change: sanity at the timed sizes, zero_rows values,
# the controls matcher). Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
#   STEP=gates     build, launch, sanity, correctness of PHASES side by side
#   STEP=controls  `ladder controls --resume`, then the five "at scale" controls as they were
#                  before this session (old_at_scale/: keyed on sizes alone) with --only, each
#                  expected at sanity now that sanity runs at the timed sizes
# Each tars the device's evidence folder (calibration.json left out) into $OUT.
set -u
PHASES=${PHASES:-phase_a phase_b phase_c phase_d phase_e}
HERE=phases/phase_e/dev/runs/twentieth
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
dev() { ls -t evidence/*/*.json evidence/*/phase_*/*.json evidence/*/controls/*/*.json 2>/dev/null | head -1 | cut -d/ -f2; }
stamp() { echo "$1 $((SECONDS - t0)) s" >> "$L/times.txt"; }
case "$STEP" in
  gates)
    pids=()
    for ph in $PHASES; do
      timeout 570 python3 -m ladder run $ph --gate build --gate launch --gate sanity --gate correctness > "$L/${ph}_gates.log" 2>&1 &
      pids+=($!)
    done
    wait "${pids[@]}"; stamp "gates ($PHASES)"
    tar czf "$OUT/evidence_gates.tgz" --exclude=calibration.json --exclude=controls "evidence/$(dev)" ;;
  controls)
    timeout 430 python3 -m ladder controls --resume > "$L/controls.log" 2>&1; stamp controls
    only=()
    for d in $HERE/old_at_scale/*/; do
      n=old_$(basename $d); cp -r $d tests/controls/$n; only+=(--only $n)
    done
    timeout 150 python3 -m ladder controls "${only[@]}" > "$L/old_at_scale.log" 2>&1; stamp old_at_scale
    tar czf "$OUT/evidence_controls.tgz" "evidence/$(dev)/controls" "evidence/$(dev)/controls.json" "evidence/$(dev)/controls.md" .ladder-run/*/controls-partial ;;
esac
tail -n 4 "$L"/*.log "$L/times.txt"
