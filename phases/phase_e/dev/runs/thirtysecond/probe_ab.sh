#!/bin/bash
# Thirty-second session: is the d=64 loop's time the exponentials' and the tensor cores' time
# added up (they cannot share an SM) or a schedule that lets the three consumer warpgroups run
# their softmaxes at once (NOTES.md, "Session of 2026-12-07 (thirty-second)")? Built on the CPU
# beforehand, with pp_softmax.patch applied to kernel.cu (a dev switch kept out of the shipped
# source, whose every record hashes it), and carried in phases/phase_e/dev/.build:
#   git apply phases/phase_e/dev/runs/thirtysecond/pp_softmax.patch
#   python3 phases/phase_e/dev/check.py --out /tmp/bld --bundle "" --stages build \
#       --libs e,d,e_pp64,e_pps64,e_pps64_trap
#   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
#       -o phases/phase_e/dev/.build/mufu_mma_probe phases/phase_e/dev/mufu_mma_probe/probe.cu
# In the call: 1. the probe alone; 2. three rotated same-process timings of e, e_pps64 (turns
# around the softmax), e_pp64 (turns around the GEMM issue) and phase_d over the d=64
# non-causal loop shapes; 3. the correctness sweep of e_pps64_trap with the gate's LSE bound.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
B=phases/phase_e/dev/.build
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$L/gpu.txt" 2>&1
"$B/mufu_mma_probe" 2000 2000 > "$L/probe.log" 2>&1; echo "probe rc $?"; cat "$L/probe.log"
echo "probe: $((SECONDS - t0)) s"
n=0
for order in ${ORDERS:-e,e_pps64,e_pp64,d e_pps64,e_pp64,d,e e_pp64,d,e,e_pps64}; do
  n=$((n + 1))
  timeout 150 python3 phases/phase_e/dev/time_variants.py --build $B --shapes loop64 --rounds 40 --names $order > "$L/tv$n.log" 2>&1
  echo "tv$n rc $? ($((SECONDS - t0)) s)"; cat "$L/tv$n.log"
done
LSE_GATE=1 timeout 200 python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stage "correct:e_pps64_trap" > "$L/correct_e_pps64_trap.log" 2>&1
echo "correct e_pps64_trap rc $?: $(grep -c ' OK$' "$L/correct_e_pps64_trap.log") OK, $(grep -c FAIL "$L/correct_e_pps64_trap.log") FAIL"
tail -1 "$L/correct_e_pps64_trap.log"; grep FAIL "$L/correct_e_pps64_trap.log" | head -8
echo "total: $((SECONDS - t0)) s"
