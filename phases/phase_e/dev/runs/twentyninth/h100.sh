#!/bin/bash
# Twenty-ninth session, the first H100 since the twenty-second: re-make every phase's records on
# the H100 (its sanity, correctness and performance were stale, phase_d's and phase_e's build too).
# Each step is one device call over twentyseventh/stage.sh's staged evidence (MACHINE=
# h100-80gb-hbm3); gate processes that time run alone; the device's evidence folder is tarred into
# $OUT after every stage, so a call cut off at the device's limit still returns what it made.
# Needs LADDER_GIT_SHA and LADDER_GIT_DIRTY (the device copy has no .git).
#   STEP=1  `make phase_e` alone and timed (the issue's 8 minutes), then a-d build to correctness
#           side by side (stage.sh phases)
#   STEP=2  build a-d if the warm device lost them, performance of a, b, c, performance and profile of d
#   STEP=3  reproduce --only phase_e, seqlen, then the performance controls (CONTROLS=...)
#   STEP=4  (the budget short after the failed starts) PHASES (default "phase_e phase_d") build to
#           correctness side by side, then performance and profile of each in that order, then
#           reproduce --only phase_e if time; PHASES=phase_e alone is about 260 s by the last H100
#           records, for a call under 400 s of device time
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
M=$(python3 -c "from ladder.environment import device_name; print(device_name())")
keep() {  # keep WHAT: time stamp, then tar the evidence as it stands
  echo "$1: $((SECONDS - t0)) s" >> "$L/times.txt"
  tar czf "$OUT/evidence_$M.tgz" "evidence/$M" .ladder-run/*/controls-partial 2>/dev/null
}
left() {  # seconds to the deadline, at least 1: `timeout 0` would mean no limit at all
  local l=$((${DEADLINE:-560} - (SECONDS - t0))); echo $((l > 1 ? l : 1)); }
case "${STEP:?STEP=1, 2, 3 or 4}" in
  4)
    P=${PHASES:-phase_e phase_d}
    for ph in $P; do
      timeout "$(left)" python3 -m ladder run $ph --gate build --gate launch --gate sanity --gate correctness \
        > "$L/${ph}_gates.log" 2>&1 &
    done
    wait; keep "$P build to correctness"
    for ph in $P; do
      timeout "$(left)" python3 -m ladder run $ph --gate performance --gate profile > "$L/${ph}_perf.log" 2>&1
      keep "$ph performance and profile"
    done
    [ "$(left)" -gt 100 ] && { timeout "$(left)" python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1; keep reproduce; } ;;
  1)
    /usr/bin/time -f "make phase_e wall %e s" timeout 480 make phase_e > "$L/make_phase_e.log" 2>&1
    keep "make phase_e"
    pids=()
    for ph in phase_a phase_b phase_c phase_d; do
      timeout 280 python3 -m ladder run $ph --gate build --gate launch --gate sanity --gate correctness \
        > "$L/${ph}_gates.log" 2>&1 &
      pids+=($!)
    done
    wait "${pids[@]}"
    keep "a-d build to correctness" ;;
  2)
    for ph in phase_a phase_b phase_c phase_d; do
      timeout 200 python3 -m ladder run $ph --gate build > "$L/${ph}_build.log" 2>&1 &
    done
    wait
    keep builds
    for ph in phase_d phase_a phase_b phase_c; do
      gates="--gate performance"; [ $ph = phase_d ] && gates="$gates --gate profile"
      timeout 300 python3 -m ladder run $ph $gates > "$L/${ph}_perf.log" 2>&1
      keep "$ph performance"
    done ;;
  3)
    timeout 200 python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1
    keep reproduce
    timeout 90 python3 -m ladder seqlen > "$L/seqlen.log" 2>&1
    keep seqlen
    if [ -n "${CONTROLS:-}" ]; then
      only=""; for c in $CONTROLS; do only="$only --only $c"; done
      timeout "${CONTROLS_S:-400}" python3 -m ladder controls --resume $only > "$L/controls.log" 2>&1
      keep controls
    fi ;;
esac
grep -h "^control \|: PASS\|: FAIL\|REFUSED\|reproduce\|targets\|verdicts\|wall" "$L"/*.log 2>/dev/null | cut -c1-400
cat "$L/times.txt"
