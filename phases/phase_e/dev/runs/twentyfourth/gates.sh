#!/bin/bash
# Twenty-fourth session, H200: the records the session's harness change stales (sanity and
# correctness of every phase), side by side with the controls it concerns: the two new ones, every
# control the correctness gate must reject (the scale plan changed there), and the sanity controls
# of the checks beside the new one. Tars the device's evidence folder into $OUT at the end.
# Needs LADDER_GIT_SHA and LADDER_GIT_DIRTY (the device copy has no .git of this commit).
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
CONTROLS=${CONTROLS:-staged_params scale_many_queries static_workspace plan_cache side_stream hardcoded_scale wrong_scale bf16_via_fp16 exp_without_max fp16_accum int32_head_offset int32_offsets long_chain long_row_sum_fp16 max_init_zero o_tail_overrun p_round_toward_zero reads_padding tail_residue zero_keys_as_padding}
pids=()
for ph in phase_a phase_b phase_c phase_d phase_e; do
  timeout ${PHASE_S:-430} python3 -m ladder run $ph --gate build --gate sanity --gate correctness > "$L/${ph}_gates.log" 2>&1 &
  pids+=($!)
done
only=""; for c in $CONTROLS; do only="$only --only $c"; done
timeout ${CONTROLS_S:-470} python3 -m ladder controls $only > "$L/controls.log" 2>&1 &
pids+=($!)
wait "${pids[@]}"
echo "all: $((SECONDS - t0)) s" >> "$L/times.txt"
tar czf "$OUT/evidence_h200.tgz" evidence/h200 .ladder-run/*/controls-partial 2>/dev/null
grep -h "sanity:\|correctness:\|build:" "$L"/*_gates.log | cut -c1-300
grep -h "^control " "$L/controls.log"
cat "$L/times.txt"
