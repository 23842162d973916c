// Control o_assumed_contiguous: writes o as if it were a packed [B, H, S_q, D] tensor, ignoring
// o's strides. Every test whose o was a fresh contiguous buffer passes.
#define CONTROL_O_STRIDES(p, sb, sh, ss) \
  (sb = int64_t((p).H) * (p).S_q * (p).D, sh = int64_t((p).S_q) * (p).D, ss = (p).D)
#include "../_common/control_base.cuh"
