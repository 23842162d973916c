#!/bin/bash
# Twenty-seventh session, H200: the records the twenty-sixth session left stale there, in two
# calls so that neither nears the 10-minute limit. STEP=1: the performance controls changed in
# 3c21fad (CONTROLS, run beside each other), then phase_d's and phase_e's profile gates. STEP=2:
# `ladder reproduce --only phase_e` (alone on the GPU: it times), then the GPU test of the threads
# check, written last session and never run. Each step tars the device's evidence folder into
# $OUT. Needs LADDER_GIT_SHA and LADDER_GIT_DIRTY (the device copy has no .git).
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
case "${STEP:?STEP=1 or 2}" in
  1)
    only=""; for c in ${CONTROLS:?}; do only="$only --only $c"; done
    timeout 360 python3 -m ladder controls $only > "$L/controls.log" 2>&1
    echo "controls: $((SECONDS - t0)) s" >> "$L/times.txt"
    for ph in phase_d phase_e; do
      # The build gate first: a fresh device has no build outputs (call 1 refused the profiles
      # for that; call 2 ran this line's form inline).
      timeout 200 python3 -m ladder run $ph --gate build --gate profile > "$L/${ph}_profile.log" 2>&1
      echo "$ph profile: $((SECONDS - t0)) s" >> "$L/times.txt"
    done ;;
  2)
    timeout 330 python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1
    echo "reproduce: $((SECONDS - t0)) s" >> "$L/times.txt"
    timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k two_host_threads > "$L/pytest_threads.log" 2>&1
    echo "threads test: $((SECONDS - t0)) s" >> "$L/times.txt" ;;
esac
tar czf "$OUT/evidence_h200.tgz" evidence/h200 .ladder-run/*/controls-partial 2>/dev/null
grep -h "^control \|profile:\|reproduce\|passed\|failed" "$L"/*.log 2>/dev/null | cut -c1-400
cat "$L/times.txt"
