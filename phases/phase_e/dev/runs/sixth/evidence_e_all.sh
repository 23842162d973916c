#!/bin/bash
# Device call: phases through every gate, then the sequence-length chart and `reproduce --only
# phase_e`, then optionally the dev harness. The evidence is tarred after each step, so a
# cut-off call still returns what finished. Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
#   UNTIMED   phases whose build..correctness run, side by side with `ladder controls --resume`
#             (default phase_e; "" skips both)
#   PERF      phases whose performance and profile run, one at a time in this order (default
#             $UNTIMED; phase_e's gate times phase_d's recorded winner, so phase_d goes first). A
#             phase not in UNTIMED is built first: a fresh machine holds no build outputs.
#   SEQLEN, REPRODUCE   1 (default) or 0
#   DEV_LIBS  check.py LIBS to build here (the evidence fills the carry room), and DEV_RUNS
#             ("shapes:name,name ..." per time_variants.py run; a shape set may repeat, e.g. in
#             the opposite order): logs come back as dev.tgz (at most 8 files come back)
# E.g. UNTIMED="phase_d phase_e" DEV_LIBS=e,e_x DEV_RUNS="ab:e,e_x ab:e_x,e" bash evidence_e_all.sh
set -u
UNTIMED=${UNTIMED-phase_e}
PERF=${PERF-$UNTIMED}
L="$OUT/logs"; mkdir -p "$L"
pack() { tar czf "$OUT/evidence_e.tgz" --exclude=calibration.json evidence/h100-80gb-hbm3; }
t0=$SECONDS
if [ -n "$UNTIMED" ]; then
  pids=()
  for ph in $UNTIMED; do
    python3 -m ladder run $ph --gate build --gate launch --gate sanity --gate correctness > "$L/${ph}_untimed.log" 2>&1 &
    pids+=($!)
  done
  python3 -m ladder controls --resume > "$L/controls.log" 2>&1
  wait "${pids[@]}"
  echo "untimed ($UNTIMED) + controls $((SECONDS - t0)) s" >> "$L/times.txt"; pack
fi
for ph in $PERF; do
  build=(); [[ " $UNTIMED " == *" $ph "* ]] || build=(--gate build)
  python3 -m ladder run $ph "${build[@]}" --gate performance --gate profile > "$L/${ph}_perf.log" 2>&1
  echo "$ph perf+profile $((SECONDS - t0)) s" >> "$L/times.txt"; pack
done
if [ "${SEQLEN:-1}" = 1 ]; then
  python3 -m ladder seqlen > "$L/seqlen.log" 2>&1
  echo "seqlen $((SECONDS - t0)) s" >> "$L/times.txt"; pack
fi
if [ "${REPRODUCE:-1}" = 1 ]; then
  python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1
  echo "reproduce $((SECONDS - t0)) s" >> "$L/times.txt"; pack
fi
tail -n 6 "$L"/*.log "$L/times.txt"
if [ -n "${DEV_LIBS:-}" ]; then
  D=/tmp/dev_logs; mkdir -p $D
  python3 phases/phase_e/dev/check.py --out $D --bundle "" --stages build --libs "$DEV_LIBS" > $D/dev_build.log 2>&1
  n=0
  for run in ${DEV_RUNS:-}; do
    n=$((n + 1))
    python3 phases/phase_e/dev/time_variants.py --build phases/phase_e/dev/.build --shapes "${run%%:*}" \
      --names "${run#*:}" > "$D/tv${n}_${run%%:*}.log" 2>&1
  done
  tail -n 14 $D/tv*.log
  tar czf "$OUT/dev.tgz" -C /tmp dev_logs
fi
