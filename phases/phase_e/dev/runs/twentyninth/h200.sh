#!/bin/bash
# Twenty-ninth session, H200 (no H100 started after three tries): the records the two applied
# patches (a refusal at the untimed checks fails; drawn problems to 65536 keys) staled, in order
# of worth, with a deadline so that the call returns within the device's 10 minutes and the
# evidence is tarred after every stage. Staged: the performance controls up to correctness
# (stage.sh perf ...) plus the phases named in PHASES up to correctness.
#   STEP=1  build PHASES side by side; performance and profile of each; then the performance
#           controls in CONTROLS (--resume: each runs its stale gates only) until the deadline
#   STEP=2  performance of PHASES; reproduce --only phase_e if REPRODUCE=1; seqlen if SEQLEN=1
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS; DEADLINE=${DEADLINE:-570}
M=$(python3 -c "from ladder.environment import device_name; print(device_name())")
keep() {
  echo "$1: $((SECONDS - t0)) s" >> "$L/times.txt"
  tar czf "$OUT/evidence_$M.tgz" "evidence/$M" .ladder-run/*/controls-partial 2>/dev/null
}
left() {  # seconds to the deadline, at least 1: `timeout 0` would mean no limit at all
  local l=$((DEADLINE - (SECONDS - t0))); echo $((l > 1 ? l : 1)); }
for ph in ${PHASES:?}; do
  timeout 200 python3 -m ladder run $ph --gate build > "$L/${ph}_build.log" 2>&1 &
done
wait; keep builds
case "${STEP:?}" in
  1)
    for ph in $PHASES; do
      timeout 300 python3 -m ladder run $ph --gate performance --gate profile > "$L/${ph}_perf.log" 2>&1
      keep "$ph performance and profile"
    done
    only=""; for c in ${CONTROLS:-}; do only="$only --only $c"; done
    [ -n "$only" ] && [ "$(left)" -gt 30 ] && {
      timeout "$(left)" python3 -m ladder controls --resume $only > "$L/controls.log" 2>&1
      keep controls; } ;;
  2)
    for ph in $PHASES; do
      timeout 300 python3 -m ladder run $ph --gate performance > "$L/${ph}_perf.log" 2>&1
      keep "$ph performance"
    done
    [ "${REPRODUCE:-0}" = 1 ] && { timeout "$(left)" python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1; keep reproduce; }
    [ "${SEQLEN:-0}" = 1 ] && { timeout "$(left)" python3 -m ladder seqlen > "$L/seqlen.log" 2>&1; keep seqlen; } ;;
esac
grep -h "^control \|: PASS\|: FAIL\|REFUSED\|reproduce\|targets\|verdicts" "$L"/*.log 2>/dev/null | cut -c1-400
cat "$L/times.txt"
