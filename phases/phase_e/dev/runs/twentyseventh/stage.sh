#!/bin/bash
# Twenty-seventh session: the H200 calls that re-make the sanity records a threads-check change
# staled, sending only the records their gates read, so that the tree stays under the device's
# 64 MiB. `ladder controls --resume` reruns a control's stale gates only; the gates before the
# stale one need their fresh records on the device (launch before sanity, correctness before
# performance), nothing else does.
#   stage.sh A     phases a-e (build.json, launch.json), every sanity and performance control
#                  (build.json, launch.json; correctness.json for the performance ones)
#   stage.sh B     the performance controls (build, launch, sanity and correctness records: call A
#                  ran their performance gates beside 42 other gates, and five passed), the
#                  correctness controls (build.json, launch.json: their correctness runs again)
#   stage.sh perf NAME...  the named performance controls' records up to correctness
#   stage.sh phases  phases a-e up to correctness (added in the twenty-eighth session, whose
#                  calls re-made every performance record)
#   stage.sh back  the whole evidence folder as it was (run before merging the calls' tars)
set -eu
cd "$(dirname "$0")/../../../../.."
HOLD=/tmp/stage-hold
MACHINE=${MACHINE:-h200}  # the machine's evidence folder (h100-80gb-hbm3 for an H100; since the twenty-eighth session)
SANITY="decode_window dtype_cache first_head_only fp16_accum host_race ignores_causal key_count_16bit l2_persist legacy_stream lse_rows_cache nan_rows no_output o_assumed_contiguous o_tail_overrun oob_read out_stride_cache pdl_no_wait plan_cache pointer_cache query_count_16bit rounds_head_dim sampled_cache side_stream sk_no_fold skips_in_capture smem_race staged_params staged_ring static_workspace stray_stream stride_cache syncs_in_call undefined_dtype warp_vote_wait writes_inputs wrong_scale zero_early_return"
CORRECTNESS="bf16_via_fp16 exp_without_max hardcoded_scale int32_head_offset int32_offsets long_chain long_row_sum_fp16 max_init_zero p_round_toward_zero reads_padding scale_many_queries tail_residue zero_keys_as_padding"
PERFORMANCE="forks_at_scale graph_skips_at_scale lossy_at_scale lossy_bf16_at_scale lse_off_at_scale memo_cache nondeterministic_at_scale one_percent_work plan_cache_when_warm sampled_cache_when_warm shares_when_warm stray_at_scale"
take() {  # take FILE...: copy each from the held evidence back into place
  for f in "$@"; do [ -f "$HOLD/$f" ] && { mkdir -p "$(dirname "$f")"; cp -p "$HOLD/$f" "$f"; }; done; true
}
stage() {
  [ -e "$HOLD" ] && { echo "stage: $HOLD exists: run 'back' first" >&2; exit 1; }
  mkdir -p "$HOLD"; mv evidence "$HOLD/evidence"; mkdir evidence
}
case "${1:-}" in
  A)
    stage
    for ph in a b c d e; do take evidence/$MACHINE/phase_$ph/build.json evidence/$MACHINE/phase_$ph/launch.json; done
    for c in $SANITY $PERFORMANCE; do take evidence/$MACHINE/controls/$c/build.json evidence/$MACHINE/controls/$c/launch.json; done
    for c in $PERFORMANCE; do take evidence/$MACHINE/controls/$c/correctness.json; done ;;
  B)
    stage
    for c in $PERFORMANCE; do
      take evidence/$MACHINE/controls/$c/build.json evidence/$MACHINE/controls/$c/launch.json \
           evidence/$MACHINE/controls/$c/sanity.json evidence/$MACHINE/controls/$c/correctness.json
    done
    for c in $CORRECTNESS; do take evidence/$MACHINE/controls/$c/build.json evidence/$MACHINE/controls/$c/launch.json; done ;;
  phases)
    stage
    for ph in a b c d e; do
      for g in build launch sanity correctness; do take evidence/$MACHINE/phase_$ph/$g.json; done
    done ;;
  perf)  # perf NAME...: those performance controls' build, launch, sanity and correctness records
    shift; stage
    for c in "$@"; do
      take evidence/$MACHINE/controls/$c/build.json evidence/$MACHINE/controls/$c/launch.json \
           evidence/$MACHINE/controls/$c/sanity.json evidence/$MACHINE/controls/$c/correctness.json
    done ;;
  back)
    [ -d "$HOLD/evidence" ] || { echo "stage: nothing held" >&2; exit 1; }
    rm -rf evidence; mv "$HOLD/evidence" evidence; rm -rf "$HOLD"; echo back ;;
  list) echo "SANITY=\"$SANITY\""; echo "CORRECTNESS=\"$CORRECTNESS\""; echo "PERFORMANCE=\"$PERFORMANCE\"" ;;
  *) echo "usage: stage.sh A | B | phases | perf NAME... | back | list" >&2; exit 2 ;;
esac
case "$1" in A|B|perf|phases) ;; *) exit 0 ;; esac
git ls-files -z --others --exclude-standard -c | xargs -0 stat -c %s 2>/dev/null |
  awk '{s+=$1} END {printf "the tree now travels as %.1f MiB (limit 64)\n", s/1048576}'
