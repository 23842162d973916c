// Control key_count_16bit: the number of keys is held in 16 bits, so a row of 65536 keys or
// more attends only to the first S_k mod 65536 of them (4464 of 70000). Every floor shape but
// the sanity shape with 70000 keys has 40000 keys or fewer and is answered right; at that one,
// all-zero queries average 4464 rows of V instead of 70000.
#define CONTROL_KEY_LIMIT(p) int(uint16_t((p).S_k))
#include "../_common/control_base.cuh"
