// Control first_head_only: a leftover debug filter makes every block outside (b = 0, h = 0)
// return at once, so only the first head of the first batch is computed.
#define CONTROL_SKIP_BLOCK(p, b, h, q_head) ((b) != 0 || (h) != 0)
#include "../_common/control_base.cuh"
