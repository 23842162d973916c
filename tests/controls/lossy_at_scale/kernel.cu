// Control lossy_at_scale: at large sizes (S_k >= 2048 and B*H*S_q >= 65536 query rows, where a
// "fast path" kicks in) every output is off by 0.3%: far under a fixed 0.02 tolerance, far over
// 2x SDPA's own error. Until the twenty-sixth session the size test was B*H >= 32; the floor's
// decode case (2,16,1,4099) then met it and correctness rejected the control before the
// performance gate's re-check against float64, which it is here to prove. No correctness case
// of the floor has 65536 query rows against 2048 keys or more.
#define CONTROL_OUT_VALUE(p, row, x) \
  ((p).S_k >= 2048 && int64_t((p).B) * (p).H * (p).S_q >= 65536 ? (x) * 1.003f : (x))
#include "../_common/control_base.cuh"
