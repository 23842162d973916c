#!/bin/bash
# Thirty-fourth session, the H200 call (the H100s kept refusing): stamps_chain.sh (the chained
# kernel's item in detail, e_ostg's timing; self-contained, compared only within the call), then
# phase_e's H200 records re-made (`make phase_e`, `reproduce --only phase_e`, `seqlen` as time
# allows: thirtyfirst/h100.sh, STEPS="make rest") over the staged records those read (phases a-e
# build.json, phase_d launch, sanity, correctness). Needs LADDER_GIT_SHA and LADDER_GIT_DIRTY.
set -u
t0=$SECONDS; D=${DEADLINE:-585}
bash phases/phase_e/dev/runs/thirtyfourth/stamps_chain.sh
STEPS="make rest" DEADLINE=$((D - (SECONDS - t0))) bash phases/phase_e/dev/runs/thirtyfirst/h100.sh
echo "total $((SECONDS - t0)) s"
