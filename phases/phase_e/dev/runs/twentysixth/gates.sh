#!/bin/bash
# Twenty-sixth session, H200: twentyfifth/gates.sh with the gates to run in GATES (default build,
# launch, sanity, correctness) and no default controls. PHASES run side by side, CONTROLS beside
# them; SERIAL_PHASES (default none) then run one at a time with no controls beside them (for
# the performance gate, whose timing must have the GPU to itself). Tars the device's evidence
# folder into $OUT. Needs LADDER_GIT_SHA and LADDER_GIT_DIRTY (the device copy has no .git).
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
gates=""; for g in ${GATES-build launch sanity correctness}; do gates="$gates --gate $g"; done
pids=()
for ph in ${PHASES-}; do
  timeout ${PHASE_S:-430} python3 -m ladder run $ph $gates > "$L/${ph}_gates.log" 2>&1 &
  pids+=($!)
done
if [ -n "${CONTROLS-}" ]; then
  only=""; for c in $CONTROLS; do only="$only --only $c"; done
  timeout ${CONTROLS_S:-470} python3 -m ladder controls $only > "$L/controls.log" 2>&1 &
  pids+=($!)
fi
[ ${#pids[@]} -gt 0 ] && wait "${pids[@]}"
echo "side by side: $((SECONDS - t0)) s" >> "$L/times.txt"
for ph in ${SERIAL_PHASES-}; do
  timeout ${SERIAL_S:-300} python3 -m ladder run $ph $gates > "$L/${ph}_serial.log" 2>&1
  echo "$ph alone: $((SECONDS - t0)) s" >> "$L/times.txt"
done
tar czf "$OUT/evidence_h200.tgz" evidence/h200 .ladder-run/*/controls-partial 2>/dev/null
grep -h "build:\|launch:\|sanity:\|correctness:\|performance:" "$L"/*_gates.log "$L"/*_serial.log 2>/dev/null | cut -c1-400
grep -h "^control " "$L/controls.log" 2>/dev/null
cat "$L/times.txt"
