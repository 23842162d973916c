#!/bin/bash
# Twenty-first session's device calls after the harness change (sanity's sharing checks moved to
# ladder/gpu/sharing.py and run again by the performance gate on the hot problem; the empty
# kernel's launch allowance in the leak rule). Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
#   STEP=sanity    the GPU-marked tests, then build and sanity of PHASES side by side
#   STEP=controls  `ladder controls --resume` (stale sanity and performance records, new controls)
# Each tars what it wrote into $OUT. Performance, seqlen, reproduce and calibration:
# nineteenth/rerecord.sh (STEP perf, after, calibrate).
set -u
PHASES=${PHASES:-phase_a phase_b phase_c phase_d phase_e}
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
dev() { ls -t evidence/*/*.json evidence/*/phase_*/*.json evidence/*/controls/*/*.json 2>/dev/null | head -1 | cut -d/ -f2; }
stamp() { echo "$1 $((SECONDS - t0)) s" >> "$L/times.txt"; }
case "$STEP" in
  sanity)
    REQUIRE_GPU=1 timeout 240 python3 -m pytest -m gpu -q -p no:cacheprovider > "$L/pytest_gpu.log" 2>&1; stamp pytest_gpu
    pids=()
    for ph in $PHASES; do
      timeout 330 python3 -m ladder run $ph --gate build --gate sanity > "$L/${ph}_sanity.log" 2>&1 &
      pids+=($!)
    done
    wait "${pids[@]}"; stamp "sanity ($PHASES)"
    tar czf "$OUT/evidence_sanity.tgz" --exclude=calibration.json --exclude=controls "evidence/$(dev)" ;;
  controls)
    timeout 560 python3 -m ladder controls --resume > "$L/controls.log" 2>&1; stamp controls
    tar czf "$OUT/evidence_controls.tgz" "evidence/$(dev)/controls" "evidence/$(dev)/controls.json" \
      "evidence/$(dev)/controls.md" .ladder-run/*/controls-partial 2>/dev/null ;;
esac
tail -n 4 "$L"/*.log "$L/times.txt"
