// Control stride_cache: plan_cache's kernel with S_k in the key, so that only the k and v row
// strides are left out of it: a call whose k and v start at the same addresses with the same
// sizes but other strides (every other row) runs with the strides of the earlier call.
#define PLAN_KEY_HAS_S_K 1
#include "../plan_cache/kernel.cu"
