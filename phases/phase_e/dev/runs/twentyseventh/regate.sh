#!/bin/bash
# Twenty-seventh session, H200: re-make the sanity records that the threads check's change staled
# (stage.sh sends only the records these gates read). STEP=A: the threads check's GPU test; then
# phases a-e build and sanity side by side with `ladder controls --resume` over the sanity and
# performance controls (a control's fresh gates stand; its stale ones run). STEP=B: the
# performance controls alone, then the correctness controls, --resume. Tars the device's evidence folder into $OUT. Needs
# LADDER_GIT_SHA and LADDER_GIT_DIRTY (the device copy has no .git).
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
eval "$(bash "$(dirname "$0")/stage.sh" list)"
controls() {  # controls NAME...: ladder controls --resume over them, in the background
  local only=""; for c in "$@"; do only="$only --only $c"; done
  timeout ${CONTROLS_S:-540} python3 -m ladder controls --resume $only > "$L/controls.log" 2>&1 &
  pids+=($!)
}
pids=()
case "${STEP:?STEP=A or B}" in
  A)
    timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k two_host_threads > "$L/pytest_threads.log" 2>&1
    echo "threads test: $((SECONDS - t0)) s" >> "$L/times.txt"
    for ph in phase_a phase_b phase_c phase_d phase_e; do
      timeout ${PHASE_S:-540} python3 -m ladder run $ph --gate build --gate sanity > "$L/${ph}.log" 2>&1 &
      pids+=($!)
    done
    controls $SANITY $PERFORMANCE ;;
  B)
    # The performance controls first, five at a time and nothing else on the GPU: beside call A's
    # 42 other gates, five of them passed (a kernel slowed by its neighbours' work no longer
    # reads under the physical floor, and a time-bounded warm-up makes fewer calls).
    only=""; for c in $PERFORMANCE; do only="$only --only $c"; done
    timeout ${PERF_S:-200} python3 -m ladder controls --resume --jobs 5 $only > "$L/controls_perf.log" 2>&1
    echo "performance controls: $((SECONDS - t0)) s" >> "$L/times.txt"
    controls $CORRECTNESS ;;
esac
wait "${pids[@]}"
echo "gates: $((SECONDS - t0)) s" >> "$L/times.txt"
tar czf "$OUT/evidence_h200.tgz" evidence/h200
grep -h "sanity:\|passed\|failed" "$L"/*.log 2>/dev/null | cut -c1-300
grep -h "^control " "$L"/controls*.log | grep -v "> match"; grep -hc "> match" "$L"/controls*.log
cat "$L/times.txt"
