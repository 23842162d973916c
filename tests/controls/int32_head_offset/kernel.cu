// Control int32_head_offset: the batch term of a row offset is 64-bit, the head term is computed
// in 32 bits. Right whenever a head stride times the head index stays under 2^31 elements, which
// includes every view whose batch stride alone is huge; a view with a head stride above 2^31
// elements reads and writes the wrong place.
#define CONTROL_ROW_OFFSET(sb, sh, ss, b, h, s) (int64_t(sb) * (b) + int32_t((sh) * (h)) + int64_t(ss) * (s))
#include "../_common/control_base.cuh"
