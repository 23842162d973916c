#!/bin/bash
# H100 call 1: build and sanity of every phase under the same-address check (no controls: they
# share the GPU and the call's 600 s), beside the old-harness probe of plan_cache. The probe's
# modules are untracked; recreate them before the call with
#   mkdir -p scratch/old_harness/ladder/gpu scratch/old_harness/ladder/gates
#   git show 1180fe2:ladder/gpu/sanity.py > scratch/old_harness/ladder/gpu/sanity.py
#   git show 1180fe2:ladder/gates/sanity.py > scratch/old_harness/ladder/gates/sanity.py
set -u
L="$OUT/logs"; mkdir -p "$L"
CONTROL=plan_cache OLD_MODULES=$PWD/scratch/old_harness timeout 420 \
  bash phases/phase_e/dev/runs/eighteenth/old_harness_probe.sh > "$L/old_probe.log" 2>&1 &
probe=$!
CONTROLS=0 bash phases/phase_e/dev/runs/fourteenth/evidence_sanity_all.sh
wait $probe
tail -n 8 "$L/old_probe.log"
