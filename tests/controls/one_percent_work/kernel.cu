// Control one_percent_work: correct for S_k < 2048, but for longer sequences attends only to the
// first S_k/128 keys (under 1%), so large workloads "run" faster than the hardware allows.
#define CONTROL_KEY_LIMIT(p) ((p).S_k >= 2048 ? (p).S_k / 128 : (p).S_k)
#include "../_common/control_base.cuh"
