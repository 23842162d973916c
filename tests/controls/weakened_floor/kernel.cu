// Control weakened_floor: a correct kernel whose gate.yaml tries to run fewer correctness trials
// than the floor asks for; the loader must reject the spec.
#include "../_common/control_base.cuh"
