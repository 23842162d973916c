// Control smem_race: the barrier before a K/V tile is restaged is missing, so a warp that finishes
// tile t early overwrites shared memory that slower warps are still reading.
#define CONTROL_TILE_BARRIER()
#include "../_common/control_base.cuh"
