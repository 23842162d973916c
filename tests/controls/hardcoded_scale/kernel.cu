// Control hardcoded_scale: uses 1/sqrt(D) whatever p.softmax_scale says: right for the default
// scale every earlier test used, wrong for any other.
#define CONTROL_SCALE(p) rsqrtf(float((p).D))
#include "../_common/control_base.cuh"
