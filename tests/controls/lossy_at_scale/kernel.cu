// Control lossy_at_scale: at large sizes (S_k >= 2048, B*H >= 32, where a "fast path" kicks in)
// every output is off by 0.3%: far under a fixed 0.02 tolerance, far over 2x SDPA's own error.
#define CONTROL_OUT_VALUE(p, row, x) ((p).S_k >= 2048 && int64_t((p).B) * (p).H >= 32 ? (x) * 1.003f : (x))
#include "../_common/control_base.cuh"
