#!/bin/bash
# Twenty-eighth session, H200 (calls 1-3 ran STEP=1-3): re-make the records the untimed value
# checks (ladder/untimed.py) and the cold-graph floor staled: every performance record, the
# performance controls, the profiles, reproduce. Each step is one device call with only the
# records its gates read (twentyseventh/stage.sh phases | perf NAME..., with MACHINE set for an
# H100), one gate process on the GPU at a time (they time), and tars the device's evidence
# folder into $OUT. Needs LADDER_GIT_SHA and LADDER_GIT_DIRTY (the device copy has no .git).
# Any machine: the evidence folder is the device's own (added after the calls, for an H100).
#   STEP=0  (for an H100, whose sanity and correctness are stale too) build, launch, sanity and
#           correctness of a-e side by side (stage.sh A's records: build.json, launch.json)
#   STEP=1  build a-e (a fresh device has no build outputs), performance of a, b, c
#   STEP=2  build d, e if absent, performance of d, e, their profiles, reproduce --only phase_e
#   STEP=3  the performance controls one at a time (CONTROLS=...), then build-to-performance of
#           the two new ones (ladder controls --resume runs a control's stale gates only)
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
stamp() { echo "$1: $((SECONDS - t0)) s" >> "$L/times.txt"; }
M=$(python3 -c "from ladder.environment import device_name; print(device_name())")
case "${STEP:?STEP=0, 1, 2 or 3}" in
  0)
    pids=()
    for ph in phase_a phase_b phase_c phase_d phase_e; do
      timeout 540 python3 -m ladder run $ph --gate build --gate launch --gate sanity --gate correctness \
        > "$L/${ph}_gates.log" 2>&1 &
      pids+=($!)
    done
    wait "${pids[@]}"
    stamp "a-e build to correctness" ;;
  1)
    for ph in phase_a phase_b phase_c phase_d phase_e; do
      timeout 200 python3 -m ladder run $ph --gate build > "$L/${ph}_build.log" 2>&1
    done
    stamp builds
    for ph in phase_a phase_b phase_c; do
      timeout 300 python3 -m ladder run $ph --gate performance > "$L/${ph}_perf.log" 2>&1
      stamp "$ph performance"
    done ;;
  2)
    for ph in phase_c phase_d phase_e; do
      timeout 200 python3 -m ladder run $ph --gate build > "$L/${ph}_build.log" 2>&1
    done
    stamp builds
    for ph in phase_d phase_e; do
      timeout 330 python3 -m ladder run $ph --gate performance --gate profile > "$L/${ph}_perf.log" 2>&1
      stamp "$ph performance and profile"
    done
    timeout 200 python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1
    stamp reproduce ;;
  3)
    only=""; for c in ${CONTROLS:?}; do only="$only --only $c"; done
    timeout 560 python3 -m ladder controls --resume $only > "$L/controls.log" 2>&1
    stamp controls ;;
esac
tar czf "$OUT/evidence_$M.tgz" "evidence/$M" .ladder-run/*/controls-partial 2>/dev/null
grep -h "^control \|: PASS\|: FAIL\|REFUSED\|reproduce\|targets\|verdicts" "$L"/*.log 2>/dev/null | cut -c1-600
cat "$L/times.txt"
