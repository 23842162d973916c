// Control decode_window: a "decode path" for short queries against long keys (S_q <= 64,
// S_k > 512) that attends to the first 512 keys only.
#define CONTROL_KEY_LIMIT(p) ((p).S_q <= 64 && (p).S_k > 512 ? 512 : (p).S_k)
#include "../_common/control_base.cuh"
