#!/bin/bash
# Device calls for a performance-harness change (it stales every phase's performance record,
# the performance-gate controls, seqlen, reproduce and calibration), in steps that each fit one
# command (600 s). Each step tars what it wrote. Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
#   STEP=a     H100: build every phase, `controls --resume`, then performance of phases a-c
#   STEP=b     H100: performance of phases d and e (phase_e's gate times phase_d's recorded
#              winner, so d goes first), seqlen, `reproduce --only phase_e`
#   STEP=c     H100: `ladder calibrate` (calibration.json comes back alone)
#   STEP=h200  H200: build and performance of every phase
# Performance runs one phase at a time and never beside the controls: they share the GPU.
# Unpacking: each tarball holds the whole device folder as that step left it, and a warm
# machine's folder is refreshed from the tree sent with each call, so a later step's tarball
# carries the earlier step's records as they were sent. Take from each only what it wrote
# (a: controls and phases a-c; b: phases d and e, seqlen, reproduce; c: calibration).
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
# The device folder these runs wrote: the one holding the newest record. (Not the newest
# device-level history.jsonl: gate runs do not write it, and the copy of the tree gives every
# file a fresh time; call 9 packed the H100's folder on the H200 that way.)
dev() { ls -t evidence/*/*.json evidence/*/phase_*/*.json evidence/*/controls/*/*.json 2>/dev/null | head -1 | cut -d/ -f2; }
pack() { tar czf "$OUT/evidence_$STEP.tgz" --exclude=calibration.json "evidence/$(dev)"; }
perf() {
  for ph in "$@"; do
    python3 -m ladder run $ph --gate build --gate performance > "$L/${ph}_perf.log" 2>&1
    echo "$ph build+perf $((SECONDS - t0)) s" >> "$L/times.txt"; pack
  done
}
case "$STEP" in
  a)
    for ph in phase_a phase_b phase_c phase_d phase_e; do python3 -m ladder run $ph --gate build > "$L/${ph}_build.log" 2>&1 & done
    wait; echo "builds $((SECONDS - t0)) s" >> "$L/times.txt"
    python3 -m ladder controls --resume > "$L/controls.log" 2>&1
    echo "controls $((SECONDS - t0)) s" >> "$L/times.txt"; pack
    perf phase_a phase_b phase_c ;;
  b)
    perf phase_d phase_e
    python3 -m ladder seqlen > "$L/seqlen.log" 2>&1; echo "seqlen $((SECONDS - t0)) s" >> "$L/times.txt"; pack
    python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1
    echo "reproduce $((SECONDS - t0)) s" >> "$L/times.txt"; pack ;;
  c)
    python3 -m ladder calibrate > "$L/calibrate.log" 2>&1; echo "calibrate $((SECONDS - t0)) s" >> "$L/times.txt"
    d=evidence/$(dev); tar czf "$OUT/evidence_c.tgz" $d/calibration.json $d/calibration.log $d/history.jsonl ;;
  h200)
    perf phase_a phase_b phase_c phase_d phase_e ;;
esac
tail -n 3 "$L"/*.log "$L/times.txt"
