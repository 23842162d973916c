#!/bin/bash
# The H200's records after the twenty-second session's harness change, in two calls.
#   STEP=1  build, sanity and correctness of every phase side by side, then performance of a, b
#   STEP=2  performance of c, d, e (and phase_e's profile), then `reproduce --only phase_e`
# Tars the device's evidence folder into $OUT after each gate run. Needs LADDER_GIT_SHA/DIRTY.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
d=evidence/h200
stamp() { echo "$1 $((SECONDS - t0)) s" >> "$L/times.txt"; }
pack() { tar czf "$OUT/evidence_h200_$STEP.tgz" $d; }
perf() {
  for ph in "$@"; do
    extra=""; [ "$ph" = phase_e ] && extra="--gate profile"
    timeout 200 python3 -m ladder run $ph --gate build --gate performance $extra > "$L/${ph}_perf.log" 2>&1
    stamp "$ph perf"; pack
  done
}
case "$STEP" in
  1)
    pids=()
    for ph in phase_a phase_b phase_c phase_d phase_e; do
      timeout 330 python3 -m ladder run $ph --gate build --gate sanity --gate correctness > "$L/${ph}_gates.log" 2>&1 &
      pids+=($!)
    done
    wait "${pids[@]}"; stamp "sanity+correctness a-e"; pack
    perf phase_a phase_b ;;
  2)
    perf phase_c phase_d phase_e
    timeout 200 python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1; stamp reproduce; pack ;;
esac
grep -h "sanity:\|correctness:\|performance:\|reproduce:" "$L"/*.log | cut -c1-400; cat "$L/times.txt"
