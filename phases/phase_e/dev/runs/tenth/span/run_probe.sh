#!/bin/bash
# Tenth session, device call 2: launch_probe (trivial kernels' launch latency by launch property,
# and phase_e's attn_fwd) at the seed and at (16,16,512,64). Built on the CPU, carried in dev/.build.
set -u
B=phases/phase_e/dev/.build
{ $B/launch_probe 300 1 8 512 64; $B/launch_probe 200 16 16 512 64; } 2>&1 | tee "$OUT/probe.log"
