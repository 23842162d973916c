// Control tail_residue: an off-by-one in one tail case: when S_k % 128 == 111 the last key is
// dropped. Only lengths with that residue show it.
#define CONTROL_KEY_LIMIT(p) ((p).S_k % 128 == 111 ? (p).S_k - 1 : (p).S_k)
#include "../_common/control_base.cuh"
