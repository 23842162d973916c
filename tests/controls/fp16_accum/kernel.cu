// Control fp16_accum: the P.V accumulator is stored in __half, so every update rounds to fp16.
// Close enough for short rows; over 2x SDPA's error once a row sums hundreds of keys.
#define CONTROL_ACC_T __half
#include "../_common/control_base.cuh"
