// Control zero_early_return: a "padding head" shortcut returns at once, writing nothing, when the
// first query row of the block's head is all zeros (it assumes such heads are never read).
#include "attn_common.cuh"

template <typename T> __device__ bool control_first_query_is_zero(const AttnParams& p, const T* q_head) {
  for (int d = 0; d < p.D; ++d)
    if (attn::to_float(q_head[d]) != 0.f) return false;
  return true;
}

#define CONTROL_SKIP_BLOCK(p, b, h, q_head) control_first_query_is_zero(p, q_head)
#include "../_common/control_base.cuh"
