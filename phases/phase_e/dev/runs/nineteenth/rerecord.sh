#!/bin/bash
# Device calls for a harness change that stales launch, sanity, correctness and performance of
# every phase (and the controls, seqlen, reproduce and calibration), in steps that each fit one
# command (600 s). Each step tars the device's evidence folder (calibration.json left out, but
# for STEP=calibrate) into $OUT. Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
#   STEP=gates      build, launch, sanity and correctness of PHASES side by side (none of them
#                   times anything), and with CONTROLS=1 (default) `ladder controls --resume`
#   STEP=perf       build and performance of PHASES one at a time (phase_e: and profile)
#   STEP=after      seqlen, then `reproduce --only phase_e`
#   STEP=calibrate  `ladder calibrate`
# Unpacking: take from each tarball only what its step wrote (a warm machine's folder is
# refreshed from the tree sent with each call).
set -u
PHASES=${PHASES:-phase_a phase_b phase_c phase_d phase_e}
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
dev() { ls -t evidence/*/*.json evidence/*/phase_*/*.json evidence/*/controls/*/*.json 2>/dev/null | head -1 | cut -d/ -f2; }
pack() { tar czf "$OUT/evidence_$STEP.tgz" --exclude=calibration.json "evidence/$(dev)"; }
stamp() { echo "$1 $((SECONDS - t0)) s" >> "$L/times.txt"; }
case "$STEP" in
  gates)
    pids=()
    for ph in $PHASES; do
      timeout 560 python3 -m ladder run $ph --gate build --gate launch --gate sanity --gate correctness > "$L/${ph}_gates.log" 2>&1 &
      pids+=($!)
    done
    if [ "${CONTROLS:-1}" = 1 ]; then timeout 560 python3 -m ladder controls --resume > "$L/controls.log" 2>&1; stamp controls; fi
    wait "${pids[@]}"; stamp "gates ($PHASES)"; pack ;;
  perf)
    for ph in $PHASES; do
      extra=""; [ "$ph" = phase_e ] && extra="--gate profile"
      python3 -m ladder run $ph --gate build --gate performance $extra > "$L/${ph}_perf.log" 2>&1
      stamp "$ph build+perf"; pack
    done ;;
  after)
    python3 -m ladder seqlen > "$L/seqlen.log" 2>&1; stamp seqlen; pack
    python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1; stamp reproduce; pack ;;
  calibrate)
    python3 -m ladder calibrate > "$L/calibrate.log" 2>&1; stamp calibrate
    d=evidence/$(dev); tar czf "$OUT/evidence_calibrate.tgz" $d/calibration.json $d/calibration.log $d/history.jsonl ;;
esac
tail -n 3 "$L"/*.log "$L/times.txt"
