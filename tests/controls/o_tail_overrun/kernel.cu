// Control o_tail_overrun: where o's head stride leaves room past S_q, stores the whole last
// 16-row tile, clobbering the rows after the view (in a packed o there is no room, so nothing
// happens, and memcheck never sees a write past an allocation).
#define CONTROL_STORE_LIMIT(p, room) ((room) > (p).S_q ? min((room), ((p).S_q + 15) / 16 * 16) : (p).S_q)
#include "../_common/control_base.cuh"
