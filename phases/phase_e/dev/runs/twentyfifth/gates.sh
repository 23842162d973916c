#!/bin/bash
# Twenty-fifth session, H200: the records the session's harness change stales (sanity and
# correctness of every phase), side by side with controls. By default the three new controls and
# the two whose checks they extend (staged_params: the queued check; misaligned: the calls outside
# the supported set); later calls name others in CONTROLS (empty: none) and the phases in PHASES.
# Tars the device's evidence folder into $OUT at the end.
# Needs LADDER_GIT_SHA and LADDER_GIT_DIRTY (the device copy has no .git of this commit).
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
CONTROLS=${CONTROLS-rounds_head_dim undefined_dtype staged_ring staged_params misaligned}
pids=()
for ph in ${PHASES-phase_a phase_b phase_c phase_d phase_e}; do
  timeout ${PHASE_S:-430} python3 -m ladder run $ph --gate build --gate sanity --gate correctness > "$L/${ph}_gates.log" 2>&1 &
  pids+=($!)
done
if [ -n "$CONTROLS" ]; then
  only=""; for c in $CONTROLS; do only="$only --only $c"; done
  timeout ${CONTROLS_S:-470} python3 -m ladder controls $only > "$L/controls.log" 2>&1 &
  pids+=($!)
fi
wait "${pids[@]}"
echo "all: $((SECONDS - t0)) s" >> "$L/times.txt"
tar czf "$OUT/evidence_h200.tgz" evidence/h200 .ladder-run/*/controls-partial 2>/dev/null
grep -h "sanity:\|correctness:\|build:" "$L"/*_gates.log 2>/dev/null | cut -c1-300
grep -h "^control " "$L/controls.log" 2>/dev/null
cat "$L/times.txt"
