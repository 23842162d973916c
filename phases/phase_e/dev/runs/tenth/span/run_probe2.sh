#!/bin/bash
# Tenth session, device call 4: launch_probe with the cluster attribute and a memset ahead; the
# CUPTI window parts again with a 2 ms spin (call 3's 200 us did not cover cuDNN's host time).
set -u
B=phases/phase_e/dev/.build
{ $B/launch_probe 300 16 16 512 64
  (cd phases/phase_e/dev/runs/tenth/span && python3 window_parts.py --lib e --rounds 200 --spin-us 2000 2>&1 | grep -v -i warn); } 2>&1 | tee "$OUT/probe2.log"
