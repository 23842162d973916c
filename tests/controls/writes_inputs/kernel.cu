// Control writes_inputs: once a row is done, the kernel stores that query row back into q
// multiplied by the softmax scale ("pre-scaled for next time"): its input is modified in place.
// This call's output is still right; the caller's q is not.
#include "attn_common.cuh"

template <typename T>
__device__ void control_prescale_q_row(const AttnParams& p, const T* q_head, int row, int lane) {
  T* q_row = const_cast<T*>(q_head) + row * p.q_stride_s;
  for (int d = lane; d < p.D; d += 32) q_row[d] = attn::from_float<T>(attn::to_float(q_row[d]) * p.softmax_scale);
}

#define CONTROL_ROW_EPILOGUE(p, q_head, row, lane) control_prescale_q_row(p, q_head, row, lane)
#include "../_common/control_base.cuh"
