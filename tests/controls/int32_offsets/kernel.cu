// Control int32_offsets: computes row offsets in 32-bit arithmetic. Right for every tensor under
// 2^31 elements; a view with a larger batch stride reads and writes the wrong place.
#define CONTROL_ROW_OFFSET(sb, sh, ss, b, h, s) int32_t((sb) * (b) + (sh) * (h) + (ss) * (s))
#include "../_common/control_base.cuh"
