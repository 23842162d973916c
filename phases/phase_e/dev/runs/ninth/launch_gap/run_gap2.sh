#!/bin/bash
# Ninth session, device call 17: does setting the kernel's shared-memory attribute on every call
# (cudaFuncSetAttribute, as launch() does) open the event-mode gap? launch_gap with the
# attribute set per launch; attn_gap on phase_e's kernel as shipped and with attr_once.patch
# (the attribute once per device). Binaries built on the CPU, carried in dev/.build.
set -u
B=phases/phase_e/dev/.build
{ $B/launch_gap
  for bin in attn_gap attn_gap_once; do
    for shape in "1 8 512 64" "16 16 512 64"; do echo -n "$bin: "; $B/$bin $shape; done
  done; } | tee "$OUT/gap2.log"
