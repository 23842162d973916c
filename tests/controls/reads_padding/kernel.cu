// Control reads_padding: where a head's stride leaves room past S_k, loads whole K/V tiles
// instead of zero-filling the rows past the end, trusting the mask (those keys get weight 0).
// But 0 x NaN is NaN: rows past a view's end may hold anything.
#define CONTROL_LOAD_LIMIT(p, limit, room) ((room) > (limit) ? (room) : (limit))
#include "../_common/control_base.cuh"
