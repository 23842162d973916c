// Control max_init_zero: the running max starts at 0 instead of -inf, a common "safe" default.
// Harmless while some logit of a row is above about -87; when every logit of a row is far below
// zero, exp2(s - 0) underflows for every key, the row sum is 0 and the output NaN.
#define CONTROL_MAX_INIT 0.f
#include "../_common/control_base.cuh"
