// Control query_count_16bit: the bound on stored output rows is the query count held in 16
// bits, so of 65536 queries or more only the first S_q mod 65536 rows are written (4464 of
// 70000); the rest keep whatever o held. Every floor shape but the sanity shape with 70000
// queries has 40000 or fewer and is answered right.
#define CONTROL_STORE_LIMIT(p, room) int(uint16_t((p).S_q))
#include "../_common/control_base.cuh"
