// Control wrong_scale: ignores p.softmax_scale and uses 1/D instead of the usual 1/sqrt(D).
#define CONTROL_SCALE(p) (1.f / float((p).D))
#include "../_common/control_base.cuh"
