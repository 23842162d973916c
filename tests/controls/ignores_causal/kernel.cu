// Control ignores_causal: never applies the causal mask; every query sees every key.
#define CONTROL_IS_CAUSAL(p) false
#include "../_common/control_base.cuh"
