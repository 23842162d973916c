#!/bin/bash
# Thirty-first session: the H100 records the applied patches (9420796) and the kernel changes
# since the twenty-second session left stale, in as few device calls as the 30-minute budget
# allows (two failed starts had spent 270 s of it before the first machine came). Runs over
# twentyseventh/stage.sh's staged evidence (MACHINE=h100-80gb-hbm3); every gate that times runs
# alone; the evidence folder is tarred into $OUT after each stage, so a call cut off still
# returns what it made. Needs LADDER_GIT_SHA and LADDER_GIT_DIRTY (the device copy has no .git).
# STEPS is a list run in order under one DEADLINE (seconds from the start, default 570):
#   make     `make phase_e` alone and timed (issue 13's 8 minutes)
#   gates    phases a-d build to correctness side by side
#   perf     build a-d again if the machine lost them, then performance and profile of d,
#            performance of a, b, c
#   rest     reproduce --only phase_e, seqlen, then the controls in CONTROLS (--resume)
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
M=$(python3 -c "from ladder.environment import device_name; print(device_name())")
keep() {  # keep WHAT: time stamp, then tar the evidence as it stands
  echo "$1: $((SECONDS - t0)) s" >> "$L/times.txt"
  tar czf "$OUT/evidence_$M.tgz" "evidence/$M" .ladder-run/*/controls-partial 2>/dev/null
}
left() {  # seconds to the deadline, at least 1: `timeout 0` would mean no limit at all
  local l=$((${DEADLINE:-570} - (SECONDS - t0))); echo $((l > 1 ? l : 1)); }
for step in ${STEPS:?make gates perf rest}; do
  case $step in
    make)
      /usr/bin/time -f "make phase_e wall %e s" timeout "$(left)" make phase_e > "$L/make_phase_e.log" 2>&1
      keep "make phase_e" ;;
    gates)
      for ph in phase_a phase_b phase_c phase_d; do
        timeout "$(left)" python3 -m ladder run $ph --gate build --gate launch --gate sanity --gate correctness \
          > "$L/${ph}_gates.log" 2>&1 &
      done
      wait; keep "a-d build to correctness" ;;
    perf)
      for ph in phase_a phase_b phase_c phase_d; do
        timeout "$(left)" python3 -m ladder run $ph --gate build > "$L/${ph}_build.log" 2>&1 &
      done
      wait; keep builds
      for ph in phase_d phase_a phase_b phase_c; do
        gates="--gate performance"; [ $ph = phase_d ] && gates="$gates --gate profile"
        [ "$(left)" -gt 60 ] || break
        timeout "$(left)" python3 -m ladder run $ph $gates > "$L/${ph}_perf.log" 2>&1
        keep "$ph performance"
      done ;;
    rest)
      [ "$(left)" -gt 90 ] && { timeout "$(left)" python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1; keep reproduce; }
      [ "$(left)" -gt 40 ] && { timeout "$(left)" python3 -m ladder seqlen > "$L/seqlen.log" 2>&1; keep seqlen; }
      only=""; for c in ${CONTROLS:-}; do only="$only --only $c"; done
      [ -n "$only" ] && [ "$(left)" -gt 60 ] && {
        timeout "$(left)" python3 -m ladder controls --resume $only > "$L/controls.log" 2>&1; keep controls; } ;;
  esac
done
grep -h "^control \|: PASS\|: FAIL\|REFUSED\|reproduce\|targets\|verdicts\|wall" "$L"/*.log 2>/dev/null | cut -c1-400
cat "$L/times.txt"
