#!/bin/bash
# Thirty-fourth session: one H100 call that lands the chained d=64 kernel (chain.patch, its SK
# fold and O staging factored into helpers the other persistent kernel calls too; every
# function's SASS instruction for instruction that of 044ac0b, which the thirty-third session
# measured), then measures where its item time goes. Runs over twentyseventh/stage.sh's staged
# evidence (MACHINE=h100-80gb-hbm3) and the CPU-built dev/.build (e_stamps, e_stamps_pd0). Needs
# LADDER_GIT_SHA and LADDER_GIT_DIRTY (the device copy has no .git).
#   1. thirtyfirst/h100.sh, STEPS="make rest": `make phase_e` alone and timed, then
#      `reproduce --only phase_e` and `seqlen`, the evidence tarred into $OUT after each;
#   2. thirtythird/stamps_ab.sh in what time is left (DEADLINE, seconds from the start, 575).
set -u
t0=$SECONDS; D=${DEADLINE:-575}
STEPS="make rest" DEADLINE=$((D - 100)) bash phases/phase_e/dev/runs/thirtyfirst/h100.sh
DEADLINE=$((D - (SECONDS - t0))) bash phases/phase_e/dev/runs/thirtythird/stamps_ab.sh
echo "total $((SECONDS - t0)) s"
