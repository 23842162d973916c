#!/bin/bash
# Tenth session, device call 11: (16,16,512,64) on the persistent 128-row d=64 kernel (e_cw2_ns,
# e_cw2s4_ns: CONSUMER_WG_D64=2, SHORT_KV=0) against e_orig (the shipped kernel of ecad3f3).
# Three rotated-order passes of the d64 set (time_variants.py checks every build against SDPA
# flash per shape).
set -u
L="$OUT/logs"; mkdir -p "$L"
NAMES=e_orig,e_cw2_ns,e_cw2s4_ns SHAPES=d64 bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
cat "$L"/tv*.log
