// phase_e: phase_d's kernel (its description follows) plus FA3-class scheduling, each switchable
// for the gate's sweep: PINGPONG (consumer warpgroups take turns at their GEMMs through named
// barriers), SPLIT_KV (a grid that cannot fill the SMs splits the keys over a thread-block
// cluster and combines the partials through distributed shared memory), SHORT_KV (a d=64
// short-row kernel, several CTAs per SM), SHORT_KSPLIT (short rows on a one-wave grid: the key
// tiles of a 64-row query tile are split over consumer warpgroups of the same CTA and merged in
// shared memory by the last of them, SHORT_FOLD_LAST; on by default), PERSIST (the d=128
// non-causal main kernel on rows of up to PERSIST_MAX_KEYS keys runs one CTA per SM over work
// items, loading the next item's Q while the current one finishes and staging O in its last K
// stage; on by default), PERSIST_D64 (the d=64 non-causal main kernel persistent too, each
// consumer warpgroup chaining its items: the next item's first Q·Kᵀ and softmax run beside the
// last P·V, Q is double-buffered and O stored from a buffer of its own; on by default), SK_TAIL
// (the persistent kernels' last two rounds split stream-K style into one
// run of key tiles per CTA, an item cut between two CTAs folded through a per-call workspace;
// on by default), NEXT_PREFETCH (a main-kernel CTA asks L2 for the tiles of the item that will
// most likely follow it; on by default), CAUSAL_TAIL (the last heads' causal items heads
// fastest; on by default) and ATTN_PDL (programmatic dependent launch). NOTES.md says what
// each measured. In fp16 at d=64 (outside the key split) the tensor cores also sum each row's
// rounded P (L_TENSOR), which lets the short-row kernel's row max go stale by up to
// 2^RESCALE_T_SHORT (O's rescale then skipped) while l stays the sum of exactly what P·V
// multiplied; a tile in which no row of a warp would move its max then skips the quad shuffles
// of the max too (SOFTMAX_VOTE). The main kernels keep the exact max (RESCALE_T 0).
// Rows of more than FLUSH_KEYS keys keep no accumulator chain longer than that (FLUSH_KEYS).
//
// phase_d: attention forward on Hopper's own machinery (sm_90a): TMA, mbarrier rings, wgmma,
// warp specialisation and setmaxnreg.
//
// phase_c ran FlashAttention-2 on mma.sync: every warp copied its share of every K/V tile with
// cp.async, fed the tensor cores 16x8x16 at a time through ldmatrix, and the whole CTA met at
// one __syncthreads per key tile. Here the copy engine, the barriers and the tensor cores are
// Hopper's own:
//
//   * Q, K and V tiles arrive by TMA (cp.async.bulk.tensor.4d, 128-byte swizzle) into shared
//     memory, each completing on an mbarrier with a transaction count. One producer thread
//     issues every load; the tensor maps are encoded on the host per call ({D, S, H, B}, any
//     16-byte-multiple strides) and passed as __grid_constant__ parameters.
//   * K and V stream through separate STAGES-deep rings of full/empty mbarrier pairs: the
//     producer waits for a stage to be empty, the consumers wait for it to be full, and each
//     consumer warpgroup releases a stage as soon as the wgmma that read it has retired.
//   * S = Q·Kᵀ is one wgmma m64nBNk16 per 16 head dims, both operands K-major in shared memory
//     (SS). O += P·V is one wgmma m64nDk16 per 16 keys with P straight from registers (RS): the
//     fp32 S accumulator of two adjacent 8-key column groups, rounded to 16 bits, IS the A
//     fragment. V is the B operand in its natural [key][dim] layout, read MN-major through the
//     transpose flag (imm-trans-b = 1): no transpose pass.
//   * Warp specialisation: warpgroup 0 is the producer and gives registers back
//     (setmaxnreg.dec to 24); warpgroups 1..CWG are consumers of 64 query rows each and take
//     them (setmaxnreg.inc). (phase_e's short-row kernel: warpgroup 0 consumes, and one warp
//     after it produces, with no setmaxnreg: SHORT_PRODUCER_WARP.)
//   * Softmax in base 2 with scale*log2(e) folded into one FFMA before ex2, running max per
//     row (never an exp of an unshifted score), partial row sums per lane, and 1/l applied once
//     in the epilogue. O is rescaled only when some row of the warp raised its max.
//   * OVERLAP=1 (default) issues S(j) = Q·K(j)ᵀ and O += P(j-1)·V(j-1) back to back, and the
//     exponentials of tile j run while P(j-1)·V(j-1) is still on the tensor cores; the O
//     rescale and the conversion of S(j) into P(j) wait for it. OVERLAP=0 runs the two products
//     and the softmax strictly in turn (the plain warp-specialised kernel).
//   * Causal: a CTA loads keys up to its last row; each consumer warpgroup computes only the
//     tiles that reach its own rows (and none if all its rows are past S_q), and for the rest
//     just releases the stages in phase order so the ring keeps turning.
//   * Epilogue: each consumer warpgroup writes its normalised 64 x D output into its own rows of
//     the (no longer needed) Q tile, in the swizzled layout the O tensor map expects, and one
//     thread stores it with a TMA store. TMA clips rows >= S_q, so nothing outside o's view is
//     ever written.
//
// Work decomposition: one work item is BLOCK_M = 64 * CWG query rows of one (batch, head), one
// CTA per item (or, PERSIST, items blockIdx.x, + gridDim.x, ... per CTA). Flat 1-D grid;
// non-causal items run query tile fastest (a head's K/V stay in L2 while its query tiles run),
// causal ones head by head, each head's heaviest query tiles first (CAUSAL_BY_HEAD), except the
// last heads' (CAUSAL_TAIL), which run heads fastest.
//
// Compile-time tunables (-DNAME=value; NAME_D64 / NAME_D128 per head dim, NAME sets both):
//   CONSUMER_WG_D64/_D128   consumer warpgroups = BLOCK_M / 64   (defaults 3 / 2: BLOCK_M 192 / 128)
//   BLOCK_N_D64/_D128       keys per K/V tile, a multiple of 16 in [64, 192] (defaults 128 / 128)
//   STAGES_D64/_D128        K/V ring depth, 2..4                 (defaults 3 / 3)
//   OVERLAP                 1: softmax(j) overlaps P(j-1)·V(j-1); 0: strictly in turn (default 1;
//                           the short-row kernel has its own, SHORT_OVERLAP, default 0)
//   ATTN_SPIN_TRAP          debug: 1 turns a barrier wait of ~2^28 polls into a trap (default 0)
//   SHORT_FOLD_LAST         1: the key split's last warpgroup folds and stores; 0: the first (default 1)
//   PERSIST, PERSIST_MAX_KEYS  1: the persistent d=128 non-causal kernel, on rows of up to that
//                           many keys (default 1, 4096; 0: one CTA per item everywhere)
//   PERSIST_D64             1: with PERSIST, the d=64 non-causal main kernel persistent, items
//                           chained (default 1; 0: one CTA per item)
//   NEXT_PREFETCH           main kernels: 2 / 1 / 0: the likely successor's Q and first K/V / its
//                           Q / nothing asked into L2 once the ring is full (default 2)
//   SHORT_BN/_STAGES/_MINB  the short-row kernel's keys per tile, ring depth, CTAs per SM (64 / 2 / 4;
//                           with SHORT_MINB 4 a consumer has 96 registers: 64-key tiles only)
//   SHORT_PRODUCER_WARP     1: the short-row kernel's producer is one warp (default 1; 0: a
//                           warpgroup, the consumer at 104 registers by setmaxnreg)
//   L_TENSOR_D64/_SHORT, RESCALE_T/_SHORT  fp16 d=64: row sums on the tensor cores ([V | ones]:
//                           1; a P·ones of their own: 2; off: 0; defaults 0 / 1) and the stale
//                           max's reach in log2 units (main kernels 0, the exact running max;
//                           short-row kernel 8)
//   SOFTMAX_TREE, SOFTMAX_VOTE  the row max as a tree (default 1); a warp vote that skips the
//                           max's quad shuffles when no row moves (1: stale-max kernels, the
//                           default; 2: every kernel; 0: off)
//   ATTN_STAMPS             diagnostic: 1 records globaltimer/clock64 at fixed points (default 0)
//   FLUSH_KEYS, FLUSH_D128_GLOBAL  rows of more than FLUSH_KEYS keys take the long-row variant,
//                           whose O accumulator restarts every FLUSH_KEYS keys into an fp32 copy
//                           (default 4096); d=128: the copy in global memory (1, default) or in
//                           shared memory beside 2 stages (0)
// A combination that cannot work is a compile error (static_assert) naming the limit: shared
// memory over 227 KB, too few registers per consumer thread for the S, P and O fragments, a
// block over 256 TMA rows, or an unsupported N. Valid and recommended sets are in NOTES.md.
//
// Shared memory per CTA: Q [BLOCK_M][D] + STAGES x (K [BLOCK_N][D] + V [BLOCK_N][D]), each tile
// stored as D/64 slabs of [rows][64] 16-bit elements (128-byte rows, TMA's 128-byte swizzle),
// plus 8 bytes per mbarrier and 1 KB to align the base to 1024 bytes (swizzled wgmma operands
// need it). Defaults: D=64 -> 24 + 96 KB; D=128 -> 32 + 192 KB (of 227).
//
// Supported: D in {64, 128}, fp16 or bf16, any B, H, S_q, S_k >= 1, causal top-left aligned;
// base pointers 16-byte aligned and all strides non-negative multiples of 8 elements (16 bytes,
// TMA's rule); anything else is refused with cudaErrorInvalidValue before any launch.
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <mutex>
#include <type_traits>
#include <cuda.h>          // CUtensorMap and its enums (types only: no -lcuda)
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000
#include "attn_abi.h"
#include "attn_common.cuh"

#ifdef CONSUMER_WG
#undef CONSUMER_WG_D64
#undef CONSUMER_WG_D128
#define CONSUMER_WG_D64 CONSUMER_WG
#define CONSUMER_WG_D128 CONSUMER_WG
#endif
#ifndef CONSUMER_WG_D64
#define CONSUMER_WG_D64 3
#endif
#ifndef CONSUMER_WG_D128
#define CONSUMER_WG_D128 2
#endif
#ifdef BLOCK_N
#undef BLOCK_N_D64
#undef BLOCK_N_D128
#define BLOCK_N_D64 BLOCK_N
#define BLOCK_N_D128 BLOCK_N
#endif
#ifndef BLOCK_N_D64
#define BLOCK_N_D64 128
#endif
#ifndef BLOCK_N_D128
#define BLOCK_N_D128 128
#endif
#ifdef STAGES
#undef STAGES_D64
#undef STAGES_D128
#define STAGES_D64 STAGES
#define STAGES_D128 STAGES
#endif
#ifndef STAGES_D64
#define STAGES_D64 3
#endif
#ifndef STAGES_D128
#define STAGES_D128 3
#endif
#ifndef OVERLAP
#define OVERLAP 1
#endif
#ifndef ATTN_SPIN_TRAP
#define ATTN_SPIN_TRAP 0
#endif
// phase_e tunables.
#ifdef PINGPONG
#undef PINGPONG_D64
#undef PINGPONG_D128
#define PINGPONG_D64 PINGPONG
#define PINGPONG_D128 PINGPONG
#endif
// d=64 main kernel only (dev experiments, NOTES.md sixth session): CTAs per SM, and the
// in-warpgroup overlap (0: each warpgroup's steps in turn, as the short-row kernel).
#ifndef MINB_D64
#define MINB_D64 1
#endif
#ifndef OVERLAP_D64
#define OVERLAP_D64 1
#endif
#ifndef PINGPONG_D64
#define PINGPONG_D64 0   // run 1: ping-pong measured 1-4% slower than without (NOTES.md)
#endif
#ifndef PINGPONG_D128
#define PINGPONG_D128 0
#endif
#ifndef ATTN_PDL       // 1: launch with programmatic stream serialisation (griddepcontrol in-kernel)
#define ATTN_PDL 1
#endif
#ifndef SPLIT_KV       // 1: split keys over a thread-block cluster when the grid underfills the GPU
#define SPLIT_KV 0       // run 1: 11.7 us/call at the seed against 6.4 for the short-row kernel
#endif
#ifndef CAUSAL_BY_HEAD // 1: causal work items head by head, each head's query tiles heaviest first
#define CAUSAL_BY_HEAD 1  // 0: heads fastest (every head's heaviest tile first: K/V of ~all heads live)
#endif
// With CAUSAL_BY_HEAD, the items of the last heads run heads fastest instead, about CAUSAL_TAIL
// x (CTAs resident at once) of them: head by head, the last head's heaviest tile starts late
// and runs on while the rest of the GPU idles; heads fastest, the last heavy tiles start a wave
// earlier. 0: head by head to the end. NOTES.md, ninth session.
#ifndef CAUSAL_TAIL
#define CAUSAL_TAIL 2
#endif
// The producer of a main-kernel CTA asks L2 for the tiles of the item the CTA that replaces it
// will most likely take (this item + the CTAs resident at once), once its own ring is full:
// 1: that item's Q tile; 2: its Q and first K and V tiles; 0: off. (The short-row kernel, four
// CTAs per SM, measured 1-3% slower with it.) NOTES.md, eighth session.
#ifndef NEXT_PREFETCH  // eighth session: +1.3 to +1.9% at (8,16,2048,64); short-row kernel excluded (-1 to -3%)
#define NEXT_PREFETCH 2
#endif
// 1: the non-causal main kernel runs one CTA per SM, each taking items blockIdx.x, + gridDim.x,
// ...: the next item's Q is loaded while the consumers finish this one (once every consumer
// warpgroup's last Q·Kᵀ of it has retired), and O is staged in the last tile's K stage instead
// of the Q tile. Where BLOCK_M <= BLOCK_N only (O fits that stage): d=128. NOTES.md, eighth
// session.
#ifndef PERSIST  // eighth session: +1.3 to +1.7% at (4,16,4096,128) (NOTES.md)
#define PERSIST 1
#endif
#ifndef PERSIST_MAX_KEYS
#define PERSIST_MAX_KEYS 4096
#endif
// 1: the d=64 non-causal main kernel is persistent too, its items chained: a consumer warpgroup
// issues the next item's first Q·Kᵀ beside this item's last P·V and runs that tile's softmax under
// it, then stores this item's O (from a buffer of its own: 192 rows do not fit a 128-key K stage)
// where a step would rescale. Q is double-buffered, so the next item's Q loads while this one
// runs. The three consumer warpgroups then never fill or drain an item with the tensor cores idle
// (NOTES.md, thirty-third session).
#ifndef PERSIST_D64
#define PERSIST_D64 1
#endif
// 1: the persistent kernel's leader does not wait for its O store to have read shared memory
// before the next item: it waits (and releases the last tile's K and V stages) once it has issued
// the next item's first Q·Kᵀ, which that stage never holds (the next item's third tile does).
// NOTES.md, seventeenth session: +0.5 to +1.0% at (4,16,4096,128), +1.6 to +1.9% at (16,16,1024,128).
#ifndef PERS_DEFER
#define PERS_DEFER 1
#endif
// 1: when the persistent kernel's items do not divide evenly over its CTAs, the last two rounds
// are split stream-K style: every CTA takes one contiguous run of their key tiles (longer than an
// item, so an item has at most two pieces), and the piece that finishes second folds the other's
// partial (O, m, l) from a per-call workspace. Without it the last round leaves the SMs without a
// last item idle for one item. Rows of fewer than SK_TAIL_MIN_TILES key tiles keep whole items:
// there one more item start per CTA costs what the tail saves. NOTES.md, ninth session.
#ifndef SK_TAIL
#define SK_TAIL 1
#endif
#ifndef SK_TAIL_MIN_TILES
#define SK_TAIL_MIN_TILES 16
#endif
#ifndef SHORT_KV       // 1: d=64 rows of <= SHORT_MAX_KEYS keys (not split) use the short-row kernel
#define SHORT_KV 1
#endif
// Causal d=64 rows up to this many keys take the short-row kernel too. Sixth session, event time
// of the short-row kernel against the main one, causal, 16k tokens x 16 heads: S = 1024 -16 to
// -17%, 2048 -2.4%, 4096 +2.4 to +2.9%, 8192 +9 to +10%, 16384 +12.5 to +13.5% (NOTES.md).
#ifndef SHORT_CAUSAL_MAX_KEYS
#define SHORT_CAUSAL_MAX_KEYS 2048
#endif
#ifndef SHORT_MAX_KEYS
#define SHORT_MAX_KEYS 512
#endif
#ifndef SPLIT_MAX      // largest cluster (power of 2, <= 8)
#define SPLIT_MAX 8
#endif
// Not a tunable: tests/controls/serialized_wgmma builds this file with it set to 1, which adds
// one FADD on an S accumulator register between the Q·Kᵀ wgmma issue and its wait, so that ptxas
// must serialise the wgmma pipeline (and says so) while the result stays exact (x + 0).
#ifndef ATTN_CONTROL_TOUCH_ACCUMULATOR
#define ATTN_CONTROL_TOUCH_ACCUMULATOR 0
#endif
// Not a tunable either: tests/controls/sk_no_fold sets it to 1, and the piece of an SK_TAIL item
// that finishes second then stores its own keys' result without folding in the other piece's.
#ifndef ATTN_CONTROL_SK_NO_FOLD
#define ATTN_CONTROL_SK_NO_FOLD 0
#endif
// The seed's latency chain (NOTES.md, "Session of 2026-11-23 (fifth)"). ATTN_STAMPS=1: a
// diagnostic ring of time stamps per CTA and call, read by dev/seed_chain.py through
// attn_stamps_read. (SHORT_DSTORE, O stored from registers on the key-split path, measured
// slower there and was removed; it is in git at 7fa4e95.)
#ifndef ATTN_STAMPS
#define ATTN_STAMPS 0
#endif
// L_TENSOR (eleventh session; fp16 only): the tensor cores sum each row's rounded P instead of
// an FADD per score. 1: P·V runs on [V | ones], eight extra columns of O's accumulator; 2: each
// tile's P·V is followed by P·ones (m64n8k16) into four registers of tile sums, added to l after
// the P·V wait (the in-turn loop only: the short-row kernel under a 64-register launch cap,
// where ptxas refuses the m64n72k16, C7602; with SHORT_PRODUCER_WARP it starts at 96 and takes
// 1). bf16 keeps the fp32 sum (its rounding would move the log-sum-exp by up to 2^-8). RESCALE_T
// (tenth session), where L_TENSOR holds: a row's running max is raised only when a tile's exceeds
// it by more than RESCALE_T (log2 units), so most tiles skip O's rescale; 0: the exact max.
// RESCALE_T applies to the main kernels, RESCALE_T_SHORT to the short-row kernel. A stale max
// rounds the dominant key's p to 16 bits where the exact one leaves it at 1: the main kernels'
// max error rose to 1.1-1.2x SDPA's at the median (worst 1.6x over 16 seeds), and their gate
// failed at two of four other trial seeds; with 0, 1.00x. The short-row kernel's rows (2-8
// tiles non-causal) measured level with the exact max (worst 1.35x on causal all-negative rows)
// and 4% faster with the stale one. Sixteenth session, NOTES.md.
// The main kernels keep the exact max (RESCALE_T 0), so [V | ones] there is 11% more P·V work for
// FADDs that were off the critical path: without it the d=64 loop is 0.7-1.2% faster, at SDPA's
// error (nineteenth session; eighteenth-session measurements, NOTES.md).
#ifndef L_TENSOR_D64
#define L_TENSOR_D64 0
#endif
// The short-row kernel's producer as one warp (thirteenth session): 160 threads, so four CTAs per
// SM start at 96 registers per thread instead of 64, and its P·V can run on [V | ones]
// (L_TENSOR_SHORT 1). With it, (16,16,512,64) 1-2% faster event-timed (NOTES.md).
#ifndef SHORT_PRODUCER_WARP
#define SHORT_PRODUCER_WARP 1
#endif
#ifndef L_TENSOR_SHORT  // 1 needs SHORT_PRODUCER_WARP (thirteenth session, NOTES.md)
#define L_TENSOR_SHORT (SHORT_PRODUCER_WARP ? 1 : 2)
#endif
#ifndef RESCALE_T  // 8: +4.5% on the main kernel's fp16 d=64 shapes, at the cost above
#define RESCALE_T 0
#endif
#ifndef RESCALE_T_SHORT
#define RESCALE_T_SHORT 8
#endif
// The softmax's prefix (twelfth session; both exact: the outputs are bit for bit those without).
// SOFTMAX_TREE: each thread's part of a row max as a balanced tree of FMNMX (depth 5 at 32
// values) rather than one dependent chain. SOFTMAX_VOTE: each thread tests its own scores
// against its rows' running max (plus RESCALE_T where that holds) and the warp votes; when no
// row of the warp moves, the quad shuffles and the max update are skipped (a row's quad max
// exceeds the bound exactly when one of its lanes' does). 1: where the stale max holds (the
// common tile then takes the short path); 2: in the exact-max kernels as well (1-1.6% slower at
// d=128, where the max rises in most tiles); 0: off. (A vote per row, 3, is in git at 959ed53.)
#ifndef SOFTMAX_TREE
#define SOFTMAX_TREE 1
#endif
#ifndef SOFTMAX_VOTE
#define SOFTMAX_VOTE 1
#endif
// FLUSH_KEYS (fifteenth session): the tensor cores' fp32 accumulator loses a little of every
// P·V step, always downward where V's entries share a sign, so one accumulator chain over a long
// row biases O (at 70000 keys, V offset by 100: -1.25 fp16 units, NOTES.md). Rows of more than
// FLUSH_KEYS keys therefore take a variant of the main kernel whose consumers add O's
// accumulator into an fp32 copy every FLUSH_KEYS keys, with rounded FFMAs, and restart it from
// zero: no chain is longer than FLUSH_KEYS keys. Rows of up to FLUSH_KEYS keys never flush and
// keep the kernels above; a cluster key split is only taken when its pieces are that short (a
// piece is one chain). The copy: d=64, in shared memory (it fits beside the tile); d=128, where
// it does not fit beside three stages, in a per-call workspace in global memory (FLUSH_D128_GLOBAL
// 1; 0: in shared memory, the ring cut to 2 stages). Measured with the flush behind a branch in
// the loop, the copy cost 6-8% at 8192-16384 keys either way; most of that was the branch
// (ptxas moved softmax work below the P·V wait), and with the flush between runs of steps the
// long rows cost 2-4% at d=128 (fifteenth session, NOTES.md).
#ifndef FLUSH_KEYS
#define FLUSH_KEYS 4096
#endif
#ifndef FLUSH_D128_GLOBAL
#define FLUSH_D128_GLOBAL 1
#endif
#ifndef SHORT_FOLD_LAST  // 1: the last key-split rank (whose tiles arrive last) folds and stores
#define SHORT_FOLD_LAST 1  // sixth session: seed graph -2.7% against rank 0 folding (NOTES.md)
#endif

namespace {

constexpr float kLn2 = 0.6931471805599453f;

// ---------------------------------------------------------------------------------------------
// Configuration.
// ---------------------------------------------------------------------------------------------
template <typename T_, int D_, int CWG_, int BN_, int STAGES_, int PP_ = 0, bool SPLIT_ = false,
          int MINB_ = 1, int KS_ = 1, bool OVL_ = true, bool PERS_ = (PERSIST != 0), bool PW_ = false,
          int FL_ = 0>
struct Config {
  using T = T_;
  static constexpr bool BF16 = std::is_same_v<T, __nv_bfloat16>;
  static constexpr int D = D_;
  // L_TENSOR: 1, O's accumulator has 8 more columns, each the row sum of the rounded P; 2, the
  // tile's row sums come from a P·ones of their own (LS). 0: l sums p in fp32.
  // Not in the key-split kernels (each warpgroup sees one or two tiles, no rescale to skip), nor
  // at d=128 (the ones block does not fit beside the persistent kernel's 225 KB).
  static constexpr int LTM = BF16 || KS_ > 1 || D_ != 64 ? 0 : MINB_ > 1 ? L_TENSOR_SHORT : L_TENSOR_D64;
  static constexpr bool LT = LTM == 1;
  static constexpr bool LS = LTM == 2;
  static constexpr bool LSUM = LTM != 0;       // the tensor cores sum P (RESCALE_T applies)
  static constexpr int RT = !LSUM ? 0 : MINB_ > 1 ? RESCALE_T_SHORT : RESCALE_T;  // the max's reach
  static constexpr int OA = D + (LT ? 8 : 0);  // accumulator columns of P·V
  static constexpr int CWG = CWG_;            // consumer warpgroups
  // In-CTA key split: KS consumer warpgroups share the same 64 query rows and take every KS-th
  // key tile each; their partial (O, m, l) are merged through shared memory at the end.
  static constexpr int KS = KS_;
  static constexpr int BM = 64 * (CWG / KS);  // query rows per CTA
  static constexpr int RELEASERS = CWG / KS;  // consumer warpgroups that read each K/V stage
  static constexpr int BN = BN_;              // keys per K/V tile
  static constexpr int NSTAGE = STAGES_;
  // PW: the producer is one warp (warp 4*CWG) after the consumer warpgroups, not a warpgroup
  // before them: fewer threads, so more registers per thread at launch for several CTAs per SM.
  static constexpr bool PW = PW_;
  static constexpr int THREADS = 128 * CWG + (PW ? 32 : 128);  // + the producer
  static constexpr int CONS0 = PW ? 0 : 128;         // consumer warpgroup 0's first thread
  static constexpr int PROD0 = PW ? 128 * CWG : 0;   // the producer thread that issues the loads
  // Ping-pong: consumer warpgroups take turns issuing their GEMMs (named barriers), so one's
  // softmax runs while another's wgmmas hold the tensor cores. Needs >= 2 consumers and OVERLAP.
  static constexpr bool PP = PP_ != 0 && CWG >= 2 && OVERLAP && KS == 1;
  // A key split whose warpgroups get one key tile each (KS tiles cover the longest row it takes)
  // has no next tile to overlap with: it runs the in-turn loop, which never holds S and the
  // previous P at once, so its tiles may be as wide as 256 keys.
  static constexpr bool ONE_STEP = KS > 1 && KS * BN >= SHORT_MAX_KEYS;
  // OVL_ false: this kernel runs each warpgroup's steps strictly in turn (the short-row kernel,
  // whose several CTAs per SM hide each other's softmax instead).
  static constexpr bool OVL = OVERLAP && OVL_ && !ONE_STEP;
  // Split-KV: the CTAs of one cluster share a query tile and each takes a slice of its keys;
  // partial (O, m, l) are combined through distributed shared memory.
  static constexpr bool SPLIT = SPLIT_;
  // PERSIST (non-causal only, decided in the kernel): the main kernel's tile, with O's rows
  // fitting one K stage.
  static constexpr bool PERSISTENT = PERS_ && !SPLIT_ && KS_ == 1 && MINB_ == 1 && PP_ == 0 &&
                                     OVERLAP && OVL_ && (64 * (CWG_ / KS_) <= BN_ || D_ == 64);
  // CHAIN (PERSIST_D64): O's rows do not fit a K stage, so the persistent kernel chains its items
  // instead (two Q buffers, O staged in a buffer of its own; the non-causal kernel only).
  static constexpr bool CHAIN = PERSISTENT && 64 * (CWG_ / KS_) > BN_;
  static constexpr int Q_BUFS = CHAIN ? 2 : 1;
  // FLUSH_KEYS: every FL_TILES key tiles, O's accumulator is added into an fp32 copy and
  // restarted (the long-row variant: one CTA per item; the overlapped and the in-turn loop).
  // FL_: 1, the copy in shared memory; 2, in a per-call global workspace, one slot per CTA.
  static constexpr bool FLUSH = FL_ != 0;
  static constexpr bool FL_GLOBAL = FL_ == 2;
  static constexpr int FL_TILES = FLUSH_KEYS / BN_;

  // Register split (setmaxnreg): the producer warpgroup keeps 24 per thread, the consumers
  // share the rest of the 64K-register file, rounded down to a multiple of 8, at most 240.
  // MINB CTAs per SM (launch bounds): each CTA starts with LAUNCH_REGS per thread (the cap
  // ptxas applies), and setmaxnreg only moves registers within that pool. PW: no setmaxnreg
  // (it takes whole warpgroups), every thread keeps LAUNCH_REGS.
  static constexpr int MINB = MINB_;
  static constexpr int LAUNCH_REGS_RAW = (65536 / (THREADS * MINB)) / 8 * 8;
  static constexpr int LAUNCH_REGS = LAUNCH_REGS_RAW > 255 ? 248 : LAUNCH_REGS_RAW;
  static constexpr int consumer_regs(int producer) {
    return ((THREADS * LAUNCH_REGS / 128 - producer) / CWG) / 8 * 8 > 240
               ? 240 : ((THREADS * LAUNCH_REGS / 128 - producer) / CWG) / 8 * 8;
  }
  static constexpr int PRODUCER_REGS = 24;
  static constexpr int CONSUMER_REGS = PW ? LAUNCH_REGS : consumer_regs(PRODUCER_REGS);
  // What a consumer thread keeps live at its peak: the S (BN/2 fp32) and O (D/2 fp32) fragments,
  // with OVERLAP also the P of the previous tile (BN/4 packed pairs) that its P·V is still
  // reading, plus 32 for softmax state, addresses and loop bookkeeping. Calibrated with ptxas -v
  // over every BLOCK_N x CONSUMER_WG x OVERLAP combination (NOTES.md): this admits exactly the
  // spill-free ones.
  // (L_TENSOR: 4 more accumulator registers, the two sum chains and l gone.)
  static constexpr int REGS_NEEDED = BN / 2 + OA / 2 + (OVL ? BN / 4 : 0) + 32 - (LT ? 4 : 0);
  // The persistent (non-causal) kernel's producer also walks its work list, SK_TAIL's runs
  // included: in 24 registers ptxas spilled the run bounds. 32 where 40 would leave the consumers
  // short (d=64's three consumer warpgroups need 160).
  static constexpr int PRODUCER_REGS_PERS = consumer_regs(40) >= REGS_NEEDED ? 40 : 32;
  static constexpr int CONSUMER_REGS_PERS = consumer_regs(PRODUCER_REGS_PERS);
  static_assert(!LS || !OVL_ || !OVERLAP, "L_TENSOR 2 (separate tile sums) runs in the in-turn loop only");

  static constexpr int SLABS = D / 64;        // 64-column (128-byte) slabs per tile row
  static constexpr int Q_SLAB = BM * 128;     // bytes of one slab of the Q tile
  static constexpr int KV_SLAB = BN * 128;
  static constexpr int Q_BYTES = SLABS * Q_SLAB;
  static constexpr int KV_BYTES = SLABS * KV_SLAB;  // one K (or V) stage
  static constexpr int Q_OFF = 0;             // byte offsets from the 1024-aligned base
  static constexpr int K_OFF = Q_OFF + Q_BUFS * Q_BYTES;
  static constexpr int V_OFF = K_OFF + NSTAGE * KV_BYTES;
  static constexpr int BAR_OFF = V_OFF + NSTAGE * KV_BYTES;
  // q_full, k_full/empty, v_full/empty, q_empty; CHAIN: the second Q buffer's full and empty
  static constexpr int NUM_BARS = 2 + 4 * NSTAGE + (CHAIN ? 2 : 0);
  // SPLIT only: the unnormalised fp32 partial O [BM][D] (float pairs XOR-swizzled per row) and
  // (m, l) per row, read by the other CTAs of the cluster.
  static constexpr int PO_OFF = ((BAR_OFF + 8 * NUM_BARS + 15) / 16) * 16;
  static constexpr int PO_BYTES = SPLIT ? BM * D * 4 : 0;
  static constexpr int ML_OFF = ((PO_OFF + PO_BYTES + 15) / 16) * 16;
  static constexpr int ML_BYTES = SPLIT ? BM * 8 : 0;
  // KS > 1 only: warpgroups 1..KS-1 leave their unnormalised fp32 O fragments (D/8 float4 per
  // thread, stored [float4 index][thread]: conflict-free) and (m0, m1, l0, l1) per thread here.
  static constexpr int KP_OFF = ((ML_OFF + ML_BYTES + 15) / 16) * 16;
  static constexpr int KP_O_BYTES = (KS - 1) * 128 * (D / 8) * 16;
  static constexpr int KP_BYTES = KS > 1 ? KP_O_BYTES + (KS - 1) * 128 * 16 : 0;
  // PERSISTENT only: one word per consumer warpgroup, its leader's SK_TAIL ticket for the others.
  static constexpr int SK_OFF = ((KP_OFF + KP_BYTES + 15) / 16) * 16;
  static constexpr int SK_BYTES = PERSISTENT ? 16 : 0;
  // FLUSH only: the copy of O, each consumer thread's OA/2 floats as float4s, stored [warpgroup]
  // [float4 index][thread] (conflict-free in shared memory, coalesced in global), only ever
  // touched by the thread that owns it.
  // CHAIN only: O's staging buffer, laid out as the Q tile (each warpgroup its own 64 rows).
  static constexpr int O_OFF = ((SK_OFF + SK_BYTES + 1023) / 1024) * 1024;
  static constexpr int O_BYTES = CHAIN ? Q_BYTES : 0;
  // CHAIN only: each consumer thread's (m, l) of the item whose O is still to be stored, parked
  // here while the next item's first softmax runs (in registers they spilled).
  static constexpr int ML_PARK_OFF = O_OFF + O_BYTES;
  static constexpr int ML_PARK_BYTES = CHAIN ? CWG * 128 * 16 : 0;
  static constexpr int FL_OFF = ((ML_PARK_OFF + ML_PARK_BYTES + 15) / 16) * 16;
  static constexpr int FL_F4 = OA / 8;  // float4s per thread
  static constexpr int FL_BYTES = FL_ == 1 ? CWG * 128 * FL_F4 * 16 : 0;
  // L_TENSOR: 16 key rows of fp16 ones, two 1024-byte swizzle atoms, the [V | ones] operand's
  // second slab for every stage and k16 step (above every V stage: the slab offset is positive).
  static constexpr int ONES_OFF = ((FL_OFF + FL_BYTES + 1023) / 1024) * 1024;
  static constexpr int ONES_BYTES = LSUM ? 2048 : 0;
  static constexpr int SMEM_BYTES = (LSUM ? ONES_OFF + ONES_BYTES : FL_OFF + FL_BYTES) + 1024;  // + alignment slack

  static_assert(D == 64 || D == 128, "head dim must be 64 or 128");
  static_assert(!PW || (KS == 1 && !SPLIT && !PERSISTENT && !PP),
                "a one-warp producer is for the short-row kernel only (no key split, cluster, "
                "persistent loop or ping-pong)");
  static_assert(CWG >= 1 && CWG / KS <= 3 && CWG <= 4,
                "CONSUMER_WG must be 1, 2 or 3 (BLOCK_M = 64 * CONSUMER_WG <= 192); up to 4 with a key split");
  static_assert(BN % 16 == 0 && BN >= 64 && (BN <= 192 || (ONE_STEP && BN == 256)),
                "BLOCK_N must be a multiple of 16 in [64, 192], or 256 for a one-step key split "
                "(k16 steps of P.V; wgmma N and TMA box limits)");
  static_assert(NSTAGE >= 2 && NSTAGE <= 8, "STAGES must be in [2, 8]");
  static_assert(!FLUSH || (KS == 1 && !SPLIT && !PERSISTENT && FLUSH_KEYS % BN == 0 && FL_TILES >= 1),
                "the long-row variant (FLUSH_KEYS) is the one-CTA-per-item main kernel, and FLUSH_KEYS a "
                "multiple of its BLOCK_N");
  static_assert(KS == 1 || (KS == CWG && !SPLIT && NSTAGE % KS == 0),
                "key split: every consumer warpgroup on the same 64 rows, and STAGES a multiple of "
                "KS so that every ring stage is read by one warpgroup only");
  static_assert(MINB * (SMEM_BYTES + 1024) <= 228 * 1024, "shared memory: MINB CTAs do not fit on one SM");
  static_assert(SMEM_BYTES <= 227 * 1024,
                "tile configuration exceeds 227 KB of shared memory: lower BLOCK_N, STAGES or CONSUMER_WG");
  static_assert(!CHAIN || (!LSUM && !PP && !FLUSH), "chained items: no tensor-core row sums, ping-pong or flush");
  static_assert(REGS_NEEDED <= (PERSISTENT ? CONSUMER_REGS_PERS : CONSUMER_REGS),
                "too few registers per consumer thread for the S, O (and with OVERLAP, P) fragments "
                "(BLOCK_N/2 + D/2 [+ BLOCK_N/4] + 32 > setmaxnreg budget): lower BLOCK_N or CONSUMER_WG, or OVERLAP=0");
};

template <typename T, int D> struct ConfigFor;
template <typename T> struct ConfigFor<T, 64> {
  using type = Config<T, 64, CONSUMER_WG_D64, BLOCK_N_D64, STAGES_D64, PINGPONG_D64, false, MINB_D64, 1,
                      OVERLAP_D64 != 0, PERSIST != 0 && PERSIST_D64 != 0>;
  // Rows of more than PERSIST_MAX_KEYS keys (with PERSIST_D64): one CTA per item.
  using one_per_item = Config<T, 64, CONSUMER_WG_D64, BLOCK_N_D64, STAGES_D64, PINGPONG_D64, false, MINB_D64, 1,
                              OVERLAP_D64 != 0, false>;
  // Rows of more than FLUSH_KEYS keys: the same tile with O flushed into an fp32 copy.
  using long_rows = Config<T, 64, CONSUMER_WG_D64, BLOCK_N_D64, STAGES_D64, PINGPONG_D64, false, MINB_D64, 1,
                           OVERLAP_D64 != 0, false, false, 1>;
};
template <typename T> struct ConfigFor<T, 128> {
  using type = Config<T, 128, CONSUMER_WG_D128, BLOCK_N_D128, STAGES_D128, PINGPONG_D128>;
  // Rows of more than PERSIST_MAX_KEYS keys: one CTA per item (the hardware's order). Seqlen
  // chart at git f8bd12d, persistent against phase_d, 16k tokens x 16 heads: S = 512 +15%,
  // 2048 +2.8%, 4096 +1.1%, 8192 -0.5%, 16384 -1.6% (NOTES.md, eighth session).
  using one_per_item = Config<T, 128, CONSUMER_WG_D128, BLOCK_N_D128, STAGES_D128, PINGPONG_D128, false, 1, 1,
                              true, false>;
  // Rows of more than FLUSH_KEYS keys, causal or not: one CTA per item, O flushed into an fp32
  // copy (64 KB per CTA): in global memory beside the usual ring, or in shared memory beside 2
  // stages.
  using long_rows = Config<T, 128, CONSUMER_WG_D128, BLOCK_N_D128, FLUSH_D128_GLOBAL ? STAGES_D128 : 2,
                           PINGPONG_D128, false, 1, 1, true, false, false, FLUSH_D128_GLOBAL ? 2 : 1>;
};
// The split-KV kernel (small grids): 128-row tiles, 128-key tiles, 2 stages (each CTA sees few
// key tiles; the partial-O buffer needs the room).
// The split-KV kernel's tile: consumer warpgroups, keys per tile, ring depth, ping-pong, CTAs
// per SM (SPLIT_MINB 2 with one warpgroup leaves room on every SM for the next call's CTAs under
// PDL; NOTES.md, "Session of 2026-11-23 (fifth)").
#ifndef SPLIT_CWG
#define SPLIT_CWG 2
#endif
#ifndef SPLIT_BN
#define SPLIT_BN 128
#endif
#ifndef SPLIT_STAGES
#define SPLIT_STAGES 2
#endif
#ifndef SPLIT_PP
#define SPLIT_PP 1
#endif
#ifndef SPLIT_MINB
#define SPLIT_MINB 1
#endif
template <typename T, int D> struct SplitConfigFor {
  // (d=128 tiles are too large for two CTAs per SM: SPLIT_MINB applies to d=64.)
  using type = Config<T, D, SPLIT_CWG, SPLIT_BN, SPLIT_STAGES, SPLIT_PP, true, D == 64 ? SPLIT_MINB : 1>;
};
// Short rows (few key tiles per query tile, a grid of several waves): small CTAs, several per SM,
// so one CTA's prologue (barrier init, first loads) and epilogue (O store) overlap another's
// math. d=64: 64-row CTAs (1 consumer warpgroup), 64-key tiles, 2 stages, 4 CTAs per SM, each
// warpgroup's steps strictly in turn: without the in-warpgroup overlap a consumer needs no
// registers for the previous P, so four CTAs fit where three did, and four warpgroups hide each
// other's softmax. Sixth session, against 4 stages, 3 CTAs per SM with the overlap: (16,16,512,64)
// time per call -8.4 to -8.8% event-timed, -7 to -11% in graph replay (NOTES.md).
#ifndef SHORT_CWG
#define SHORT_CWG 1
#endif
#ifndef SHORT_BN
#define SHORT_BN 64
#endif
#ifndef SHORT_STAGES
#define SHORT_STAGES 2
#endif
#ifndef SHORT_MINB
#define SHORT_MINB 4
#endif
#ifndef SHORT_OVERLAP
#define SHORT_OVERLAP 0
#endif
template <typename T> struct ShortConfigFor {
  using type = Config<T, 64, SHORT_CWG, SHORT_BN, SHORT_STAGES, 1, false, SHORT_MINB, 1, SHORT_OVERLAP != 0,
                      PERSIST != 0, SHORT_PRODUCER_WARP != 0>;
};
// Short rows on a grid that fits in one wave (B*H*ceil(S_q/64) <= SHORT_KSPLIT_MAX_CTAS, a shape
// rule): one 64-row query tile per CTA, SHORT_KSPLIT consumer warpgroups splitting its key tiles
// (interleaved), a ring that holds every key tile of a SHORT_MAX_KEYS row, partials merged in
// shared memory. SHORT_KSPLIT=1 turns the path off.
#ifndef SHORT_KSPLIT   // on: run 2 passed synccheck, the full sweep and every special check (NOTES.md)
#define SHORT_KSPLIT 2
#endif
// Keys per tile, non-causal and causal; the ring holds every tile of a SHORT_MAX_KEYS row. Helper
// run 1: 128-key tiles 4.84 us at the seed, 64-key 5.24. Sixth session: 256-key tiles (one per
// warpgroup, the in-turn loop) -1.4% non-causal but +3-10% causal, where the keys of a CTA's
// early rows all fall to warpgroup 0's tile (NOTES.md).
#ifndef SHORT_KSPLIT_BN
#define SHORT_KSPLIT_BN 256
#endif
#ifndef SHORT_KSPLIT_BN_CAUSAL
#define SHORT_KSPLIT_BN_CAUSAL 128
#endif
#ifndef SHORT_KSPLIT_MAX_CTAS
#define SHORT_KSPLIT_MAX_CTAS 132
#endif
#if SHORT_KSPLIT > 1
template <typename T, bool CAUSAL> struct ShortSplitConfigFor {
  static constexpr int BN = CAUSAL ? SHORT_KSPLIT_BN_CAUSAL : SHORT_KSPLIT_BN;
  using type = Config<T, 64, SHORT_KSPLIT, BN, SHORT_MAX_KEYS / BN, 0, false, 1, SHORT_KSPLIT>;
};
#endif

// ---------------------------------------------------------------------------------------------
// PTX wrappers: mbarriers, TMA, fences, setmaxnreg.
// ---------------------------------------------------------------------------------------------
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return uint32_t(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
// Producer: one arrival that also announces the bytes the TMA copies will deliver.
__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
// Counts the polls of one wait; with ATTN_SPIN_TRAP, about 2^28 of them trap (a hang becomes an
// error the sweep can report). Without it, nothing.
struct SpinGuard {
  uint32_t polls = 0;
  __device__ __forceinline__ void poll() {
    if (ATTN_SPIN_TRAP && ++polls == (1u << 28)) __trap();
  }
};
// Blocks until the phase with the given parity has completed. A freshly initialised barrier
// is in phase 0, so waiting for parity 1 returns at once: that is how the producer's first
// pass over the (initially empty) ring goes through without a consumer release.
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  SpinGuard guard;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
    guard.poll();
  } while (!done);
}

__device__ __forceinline__ void prefetch_tmap(const CUtensorMap* m) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(m)) : "memory");
}
// 4-D tiled TMA load (coordinates innermost first: dim, row, head, batch) completing on bar.
__device__ __forceinline__ void tma_load_4d(uint32_t dst, const CUtensorMap* m, uint32_t bar,
                                            int c0, int c1, int c2, int c3) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4, %5, %6}], [%2];\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(m)), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
      : "memory");
}
__device__ __forceinline__ void tma_store_4d(const CUtensorMap* m, uint32_t src, int c0, int c1,
                                             int c2, int c3) {
  asm volatile(
      "cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4, %5}], [%1];\n" ::"l"(
          reinterpret_cast<uint64_t>(m)),
      "r"(src), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
      : "memory");
}
// An L2-only prefetch of one TMA box: nothing reaches this SM's shared memory (NEXT_PREFETCH).
__device__ __forceinline__ void tma_prefetch_l2_4d(const CUtensorMap* m, int c0, int c1, int c2, int c3) {
  asm volatile("cp.async.bulk.prefetch.tensor.4d.L2.global.tile [%0, {%1, %2, %3, %4}];\n" ::"l"(
                   reinterpret_cast<uint64_t>(m)),
               "r"(c0), "r"(c1), "r"(c2), "r"(c3)
               : "memory");
}
__device__ __forceinline__ void tma_store_commit() {
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
__device__ __forceinline__ void tma_store_drain() {
  asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");  // smem may be released
}
__device__ __forceinline__ void tma_store_commit_and_drain() {
  tma_store_commit();
  tma_store_drain();
}
// Orders this thread's generic-proxy shared-memory writes before later async-proxy accesses
// (the TMA store of O).
__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
// Barrier among the 128 threads of one consumer warpgroup (ids 1.. ; 0 is __syncthreads).
__device__ __forceinline__ void warpgroup_bar(int id) {
  asm volatile("bar.sync %0, 128;\n" ::"r"(id) : "memory");
}
// Named barriers for ping-pong: bar.sync waits until `n` threads have arrived (its own 128
// plus the 128 of the warpgroup that hands over the turn with bar.arrive).
__device__ __forceinline__ void named_bar_sync(int id, int n) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(n) : "memory");
}
__device__ __forceinline__ void named_bar_arrive(int id, int n) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(n) : "memory");
}
// Programmatic dependent launch: wait for the grids this one depends on (no-op without PDL),
// and let the next grid start its prologue.
__device__ __forceinline__ void pdl_wait() { asm volatile("griddepcontrol.wait;\n" ::: "memory"); }
__device__ __forceinline__ void pdl_launch_dependents() {
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
}
#if ATTN_STAMPS
// Ring [call % 8][CTA < 256][point a..h] of {globaltimer ns, clock64}. globaltimer is the one
// clock comparable across SMs (launch spread, the gap between calls); clock64 is finer but per
// SM, so it is only differenced within a CTA. The slot comes from a call counter that CTA 0
// bumps as its last action and that every CTA reads after griddepcontrol.wait, when the previous
// call's bump is visible. (A CTA of the same call reading after CTA 0's bump would land in the
// next slot. At the seed it does not: one wave of 64 CTAs, all past the wait long before CTA 0
// ends. seed_chain.py prints each call's entry spread, which such a CTA would blow up.)
constexpr int kStampSlots = 8, kStampCtas = 256, kStampPoints = 8;
__device__ ulonglong2 g_attn_stamps[kStampSlots * kStampCtas * kStampPoints];
__device__ unsigned g_stamp_calls;
__device__ __forceinline__ ulonglong2 stamp_now() {
  ulonglong2 s;
  asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(s.x)::"memory");
  asm volatile("mov.u64 %0, %%clock64;\n" : "=l"(s.y)::"memory");
  return s;
}
__device__ __forceinline__ unsigned stamp_calls() {
  return *reinterpret_cast<volatile unsigned*>(&g_stamp_calls);
}
__device__ __forceinline__ ulonglong2* stamp_row(unsigned calls) {
  return g_attn_stamps + (size_t(calls % kStampSlots) * kStampCtas + blockIdx.x) * kStampPoints;
}
// Keeps the slot arithmetic below this point in the PTX, so that no thread waits for the counter's
// load (an L2 round trip) before the work it is meant to time.
__device__ __forceinline__ void stamp_defer(unsigned& calls) { asm volatile("" : "+r"(calls)::"memory"); }
#define ATTN_STAMP(row, pt)                        \
  do {                                             \
    if ((row) != nullptr) (row)[pt] = stamp_now(); \
  } while (0)
// Consumer stamps held in a register (st_on: this thread stamps), stored after the main loop.
#define ATTN_HOLD(reg)              \
  do {                              \
    if (st_on) (reg) = stamp_now(); \
  } while (0)
#else
#define ATTN_STAMP(row, pt) \
  do {                      \
  } while (0)
#define ATTN_HOLD(reg) \
  do {                 \
  } while (0)
#endif
// Clusters.
__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
__device__ __forceinline__ uint32_t cluster_size() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(r));
  return r;
}
__device__ __forceinline__ void cluster_sync_all() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}
// Shared address of the same variable in CTA `rank` of the cluster.
__device__ __forceinline__ uint32_t map_rank(uint32_t addr, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(r) : "r"(addr), "r"(rank));
  return r;
}
__device__ __forceinline__ float4 ld_cluster_f4(uint32_t addr) {
  float4 v;
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];\n"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(addr) : "memory");
  return v;
}
__device__ __forceinline__ float2 ld_cluster_f2(uint32_t addr) {
  float2 v;
  asm volatile("ld.shared::cluster.v2.f32 {%0, %1}, [%2];\n" : "=f"(v.x), "=f"(v.y) : "r"(addr) : "memory");
  return v;
}
template <int N> __device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
}
template <int N> __device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
}

// ---------------------------------------------------------------------------------------------
// wgmma.
//
// Shared-memory matrix descriptor (sm_90): bits 0-13 start address >> 4, 16-29 leading-
// dimension byte offset >> 4, 32-45 stride-dimension byte offset >> 4, 49-51 base offset (0:
// every tile here starts 1024-byte aligned), 62-63 swizzle mode (1 = 128-byte).
//   K-major (Q as A and K as B of Q·Kᵀ): rows of 128 bytes, 8-row groups 1024 bytes apart
//     (SBO = 1024); the 16-element K extent of one instruction lies inside one 128-byte row,
//     so LBO is unused. The k16 step kk of a D-wide tile starts at slab kk/4, byte 32*(kk%4):
//     the hardware applies the swizzle to the final address bits, so a plain +32 B works
//     inside a slab, never across one.
//   MN-major (V as B of P·V, stored [key][dim]): LBO = bytes between 64-dim slabs (BN*128),
//     SBO = 1024 between 8-key groups; the k16 step kk starts 16 keys = 2048 bytes further.
// ---------------------------------------------------------------------------------------------
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
  return uint64_t((addr & 0x3FFFFu) >> 4) | (uint64_t(lbo >> 4) << 16) |
         (uint64_t(sbo >> 4) << 32) | (uint64_t(1) << 62);
}
__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N> __device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// Pins registers at this point of the instruction stream: the compiler may not move their
// reads or writes across it (used around wgmma issue and wait, whose register effects are
// asynchronous and invisible to the compiler).
template <int N> __device__ __forceinline__ void pin(float (&r)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(r[i])::"memory");
}
template <int N> __device__ __forceinline__ void pin(uint32_t (&r)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+r"(r[i])::"memory");
}

}  // namespace

// ---- GENERATED by phases/phase_d/dev/gen_wgmma.py 256 --rs-f16=8,72: one inline-asm statement per (N, dtype).
// (In a named namespace: unused specialisations of an anonymous one draw 'never referenced'.)
namespace attn_phase_e {
template <int N, bool BF16> struct Wgmma;  // specialised below for the supported N
template <> struct Wgmma<64, false> {
  // D[64 x 64] (+)= A[64 x 16] . B[64 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[32], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, "
        "%11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "
        "%30, %31}, %32, %33, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(a), "l"(b), "r"(accumulate));
  }
  // D[64 x 64] (+)= A[64 x 16] (registers) . B[16 x 64], B MN-major in shared memory
  // (imm-trans-b = 1: the tile is stored [k][n] with n contiguous).
  static __device__ __forceinline__ void rs(float (&d)[32], uint32_t a0, uint32_t a1, uint32_t a2,
                                            uint32_t a3, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, "
        "%11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "
        "%30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 1; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<64, true> {
  // D[64 x 64] (+)= A[64 x 16] . B[64 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[32], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31}, %32, %33, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(a), "l"(b), "r"(accumulate));
  }
  // D[64 x 64] (+)= A[64 x 16] (registers) . B[16 x 64], B MN-major in shared memory
  // (imm-trans-b = 1: the tile is stored [k][n] with n contiguous).
  static __device__ __forceinline__ void rs(float (&d)[32], uint32_t a0, uint32_t a1, uint32_t a2,
                                            uint32_t a3, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 1; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<80, false> {
  // D[64 x 80] (+)= A[64 x 16] . B[80 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[40], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %42, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n80k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, "
        "%11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "
        "%30, %31, %32, %33, %34, %35, %36, %37, %38, %39}, %40, %41, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<80, true> {
  // D[64 x 80] (+)= A[64 x 16] . B[80 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[40], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %42, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n80k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39}, %40, %41, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<96, false> {
  // D[64 x 96] (+)= A[64 x 16] . B[96 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[48], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %50, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n96k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, "
        "%11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "
        "%30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47}, %48, "
        "%49, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<96, true> {
  // D[64 x 96] (+)= A[64 x 16] . B[96 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[48], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %50, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n96k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47}, "
        "%48, %49, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<112, false> {
  // D[64 x 112] (+)= A[64 x 16] . B[112 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[56], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %58, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n112k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55}, %56, %57, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<112, true> {
  // D[64 x 112] (+)= A[64 x 16] . B[112 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[56], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %58, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n112k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55}, %56, %57, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<128, false> {
  // D[64 x 128] (+)= A[64 x 16] . B[128 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[64], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, "
        "1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(a), "l"(b), "r"(accumulate));
  }
  // D[64 x 128] (+)= A[64 x 16] (registers) . B[16 x 128], B MN-major in shared memory
  // (imm-trans-b = 1: the tile is stored [k][n] with n contiguous).
  static __device__ __forceinline__ void rs(float (&d)[64], uint32_t a0, uint32_t a1, uint32_t a2,
                                            uint32_t a3, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, "
        "%67}, %68, p, 1, 1, 1; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<128, true> {
  // D[64 x 128] (+)= A[64 x 16] . B[128 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[64], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, "
        "1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(a), "l"(b), "r"(accumulate));
  }
  // D[64 x 128] (+)= A[64 x 16] (registers) . B[16 x 128], B MN-major in shared memory
  // (imm-trans-b = 1: the tile is stored [k][n] with n contiguous).
  static __device__ __forceinline__ void rs(float (&d)[64], uint32_t a0, uint32_t a1, uint32_t a2,
                                            uint32_t a3, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, "
        "%67}, %68, p, 1, 1, 1; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<144, false> {
  // D[64 x 144] (+)= A[64 x 16] . B[144 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[72], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %74, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n144k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, "
        "%67, %68, %69, %70, %71}, %72, %73, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<144, true> {
  // D[64 x 144] (+)= A[64 x 16] . B[144 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[72], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %74, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n144k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, "
        "%67, %68, %69, %70, %71}, %72, %73, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<160, false> {
  // D[64 x 160] (+)= A[64 x 16] . B[160 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[80], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %82, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n160k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, "
        "%67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79}, %80, %81, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<160, true> {
  // D[64 x 160] (+)= A[64 x 16] . B[160 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[80], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %82, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n160k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, "
        "%67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79}, %80, %81, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<176, false> {
  // D[64 x 176] (+)= A[64 x 16] . B[176 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[88], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %90, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n176k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, "
        "%67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, "
        "%86, %87}, %88, %89, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<176, true> {
  // D[64 x 176] (+)= A[64 x 16] . B[176 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[88], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %90, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n176k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, "
        "%67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, "
        "%86, %87}, %88, %89, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<192, false> {
  // D[64 x 192] (+)= A[64 x 16] . B[192 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[96], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n192k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, "
        "%67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, "
        "%86, %87, %88, %89, %90, %91, %92, %93, %94, %95}, %96, %97, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<192, true> {
  // D[64 x 192] (+)= A[64 x 16] . B[192 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[96], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, "
        "%67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, "
        "%86, %87, %88, %89, %90, %91, %92, %93, %94, %95}, %96, %97, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<256, false> {
  // D[64 x 256] (+)= A[64 x 16] . B[256 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[128], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, "
        "%67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, "
        "%86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, "
        "%104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, "
        "%120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<256, true> {
  // D[64 x 256] (+)= A[64 x 16] . B[256 x 16]^T, both operands K-major in shared memory.
  static __device__ __forceinline__ void ss(float (&d)[128], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, "
        "%10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, "
        "%29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, "
        "%67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, "
        "%86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, "
        "%104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, "
        "%120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 0; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<8, false> {
  // D[64 x 8] (+)= A[64 x 16] (registers) . B[16 x 8], B MN-major in shared memory
  // (imm-trans-b = 1: the tile is stored [k][n] with n contiguous).
  static __device__ __forceinline__ void rs(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2,
                                            uint32_t a3, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p, 1, "
        "1, 1; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(b), "r"(accumulate));
  }
};
template <> struct Wgmma<72, false> {
  // D[64 x 72] (+)= A[64 x 16] (registers) . B[16 x 72], B MN-major in shared memory
  // (imm-trans-b = 1: the tile is stored [k][n] with n contiguous).
  static __device__ __forceinline__ void rs(float (&d)[36], uint32_t a0, uint32_t a1, uint32_t a2,
                                            uint32_t a3, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %41, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n72k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, "
        "%11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "
        "%30, %31, %32, %33, %34, %35}, {%36, %37, %38, %39}, %40, p, 1, 1, 1; "
        "\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(b), "r"(accumulate));
  }
};
}  // namespace attn_phase_e
// ---- end of GENERATED ------------------------------------------------------------------------

namespace {
using attn_phase_e::Wgmma;

__device__ __forceinline__ float fast_exp2f(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

// Two floats -> one register of two fp16/bf16 (round to nearest), `lo` in the low half.
template <typename T>
__device__ __forceinline__ uint32_t pack2(float lo, float hi) {
  uint32_t u;
  if constexpr (std::is_same_v<T, __half>) {
    const __half2 h = __floats2half2_rn(lo, hi);
    memcpy(&u, &h, 4);
  } else {
    const __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    memcpy(&u, &h, 4);
  }
  return u;
}

// ---------------------------------------------------------------------------------------------
// Consumer pieces. Fragment layout of a wgmma m64nN accumulator (per warpgroup, 4 warps): warp w
// holds rows 16w..16w+15; lane (g = lane/4, t = lane%4) holds, for each 8-column group i,
//   acc[4i + 0], acc[4i + 1] = row 16w + g,     columns 8i + 2t, 8i + 2t + 1
//   acc[4i + 2], acc[4i + 3] = row 16w + g + 8, the same columns.
// The A fragment of an RS wgmma (16-bit, k16) has the layout of mma.m16n8k16's A per warp:
//   a0 = (g, 2t..+1)  a1 = (g+8, 2t..+1)  a2 = (g, 8+2t..+1)  a3 = (g+8, 8+2t..+1)
// so keys 16kk..16kk+15 of S (column groups 2kk, 2kk+1) packed pairwise give exactly
//   a_i = pack(acc[8kk + 2i], acc[8kk + 2i + 1]):  P[j] = pack(S[2j], S[2j+1]), no shuffles.
// ---------------------------------------------------------------------------------------------

// S = Q·Kᵀ for this warpgroup's 64 rows and one K stage (issued, not waited for).
template <class C>
__device__ __forceinline__ void issue_qk(float (&s)[C::BN / 2], uint64_t q_desc, uint64_t k_desc) {
#pragma unroll
  for (int kk = 0; kk < C::D / 16; ++kk) {
    const uint32_t q_off = uint32_t((kk / 4) * C::Q_SLAB + (kk % 4) * 32) >> 4;
    const uint32_t k_off = uint32_t((kk / 4) * C::KV_SLAB + (kk % 4) * 32) >> 4;
    Wgmma<C::BN, C::BF16>::ss(s, q_desc + q_off, k_desc + k_off, kk > 0);
  }
#if ATTN_CONTROL_TOUCH_ACCUMULATOR
  asm volatile("add.f32 %0, %0, 0f00000000;\n" : "+f"(s[0]));  // negative control only
#endif
}

// O += P·V for one V stage (issued, not waited for).
// L_TENSOR: the ones slab sits at a fixed address, so the slab offset shrinks by what the start
// address gains at each k16 step.
// L_TENSOR 2: ts (four registers) gets the tile's row sums, P·ones, from the ones block (ones_desc).
template <class C>
__device__ __forceinline__ void issue_pv(float (&o)[C::OA / 2], const uint32_t (&pf)[C::BN / 4],
                                         uint64_t v_desc, float (*ts)[4] = nullptr, uint64_t ones_desc = 0) {
#pragma unroll
  for (int kk = 0; kk < C::BN / 16; ++kk) {
    const uint64_t step = uint64_t((kk * 2048) >> 4);
    Wgmma<C::OA, C::BF16>::rs(o, pf[4 * kk], pf[4 * kk + 1], pf[4 * kk + 2], pf[4 * kk + 3],
                              v_desc + step - (C::LT ? step << 16 : 0), 1);
    if constexpr (C::LS)
      Wgmma<8, false>::rs(*ts, pf[4 * kk], pf[4 * kk + 1], pf[4 * kk + 2], pf[4 * kk + 3], ones_desc, kk > 0);
  }
}

// Sets S to -inf where the key is past S_k or, if causal, after the query. Runs before the row
// max, so masked scores never raise it.
template <class C, bool CAUSAL>
__device__ __forceinline__ void apply_mask(float (&s)[C::BN / 2], int row0, int n0, int S_k, int t) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int row = row0 + 8 * h;
    const int key_end = CAUSAL ? min(row + 1, S_k) : S_k;  // keys [0, key_end) are visible
#pragma unroll
    for (int i = 0; i < C::BN / 8; ++i)
#pragma unroll
      for (int e = 0; e < 2; ++e)
        if (n0 + 8 * i + 2 * t + e >= key_end) s[4 * i + 2 * h + e] = -INFINITY;
  }
}

// This thread's part of row h's max (its BN/4 scores of that row), before the quad reduction.
template <class C>
__device__ __forceinline__ float local_row_max(const float (&s)[C::BN / 2], int h) {
  if constexpr (SOFTMAX_TREE) {
    float v[C::BN / 8];
#pragma unroll
    for (int i = 0; i < C::BN / 8; ++i) v[i] = fmaxf(s[4 * i + 2 * h], s[4 * i + 2 * h + 1]);
#pragma unroll
    for (int w = 1; w < C::BN / 8; w *= 2) {
#pragma unroll
      for (int i = 0; i + w < C::BN / 8; i += 2 * w) v[i] = fmaxf(v[i], v[i + w]);
    }
    return v[0];
  } else {
    float mx = -INFINITY;
#pragma unroll
    for (int i = 0; i < C::BN / 8; ++i) mx = fmaxf(mx, fmaxf(s[4 * i + 2 * h], s[4 * i + 2 * h + 1]));
    return mx;
  }
}

// Online softmax on one tile, in place: S becomes exp2(S*c - m_new) (fp32), m and the per-lane
// partial sums l are updated, and alpha = exp2(m_old - m_new) is returned for the O rescale.
// A row's BN scores sit in the 4 lanes of a quad, so the max takes two xor-shuffles (unless the
// warp's vote finds no row moving: SOFTMAX_VOTE); the sum stays per lane (all four lanes apply
// the same alphas) and is reduced once, in the epilogue.
template <class C>
__device__ __forceinline__ void softmax_tile(float (&s)[C::BN / 2], float (&m)[2], float (&l)[2],
                                             float (&alpha)[2], float scale_log2) {
  constexpr bool STALE = C::RT > 0;
  constexpr float REACH = STALE ? float(C::RT) : 0.f;
  float mx[2], m_new[2];
#pragma unroll
  for (int h = 0; h < 2; ++h) mx[h] = local_row_max<C>(s, h);
  bool all_stay = false;
  if constexpr (SOFTMAX_VOTE == 2 || (SOFTMAX_VOTE == 1 && STALE)) {
    // A row keeps its max unless its tile max (x scale) exceeds m + REACH, which holds for the
    // row exactly when it holds for one of its quad's lanes; m = -inf always fails (-inf + REACH
    // is -inf), unless all the row's scores are -inf too, and then the update keeps -inf as well.
    bool stay = true;
#pragma unroll
    for (int h = 0; h < 2; ++h) stay = stay && !(mx[h] * scale_log2 > m[h] + REACH);
    all_stay = __all_sync(0xffffffffu, stay);
  }
  if (all_stay) {
#pragma unroll
    for (int h = 0; h < 2; ++h) m_new[h] = m[h];
  } else {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 1));
      mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 2));
      m_new[h] = fmaxf(m[h], mx[h] * scale_log2);  // scale > 0: max commutes with it
      if constexpr (STALE) {
        // A stale max stands while the tile's stays within RT of it (p <= 2^RT): l
        // sums the same rounded P as O, so the rounding of p cancels in O / l as with p = 1. A
        // row's first visible key always replaces -inf.
        const float m_tile = mx[h] * scale_log2;
        m_new[h] = m_tile > m[h] + REACH ? m_tile : m[h];
      }
    }
  }
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    // Every row sees key 0 in the first tile, so m_new is finite from then on; the guard keeps
    // (-inf) - (-inf) = NaN out should a row ever have no visible key yet.
    const float m_use = m_new[h] == -INFINITY ? 0.f : m_new[h];
    alpha[h] = fast_exp2f(m[h] - m_use);
    m[h] = m_new[h];
    float sum0 = 0.f, sum1 = 0.f;  // two chains: half the FADD latency on the critical path
#pragma unroll
    for (int i = 0; i < C::BN / 8; ++i) {
      const float p0 = fast_exp2f(fmaf(s[4 * i + 2 * h], scale_log2, -m_use));
      const float p1 = fast_exp2f(fmaf(s[4 * i + 2 * h + 1], scale_log2, -m_use));
      s[4 * i + 2 * h] = p0;
      s[4 * i + 2 * h + 1] = p1;
      if constexpr (!C::LSUM) {  // L_TENSOR: the tensor cores sum them
        sum0 += p0;
        sum1 += p1;
      }
    }
    if constexpr (!C::LSUM) l[h] = l[h] * alpha[h] + (sum0 + sum1);
    if constexpr (C::LS) l[h] *= alpha[h];  // this tile's sums come after its P·V
  }
}

// O *= alpha per row, skipped (exactly) when no row of the warp moved its max.
template <class C>
__device__ __forceinline__ void rescale_o(float (&o)[C::OA / 2], const float (&alpha)[2]) {
  if (__any_sync(0xffffffffu, alpha[0] != 1.f || alpha[1] != 1.f)) {
#pragma unroll
    for (int i = 0; i < C::OA / 8; ++i) {
      o[4 * i + 0] *= alpha[0];
      o[4 * i + 1] *= alpha[0];
      o[4 * i + 2] *= alpha[1];
      o[4 * i + 3] *= alpha[1];
    }
  }
}

// OVERLAP: waits for the in-flight P·V, then rescales O. ptxas schedules a wgmma wait like any
// other instruction inside its basic block, and with the wait in the softmax's block it hoisted
// it above the exponentials (seen in SASS: WARPGROUP.DEPBAR.LE gsb0, 0x0 right after the S wait),
// which serialises the softmax behind P·V again. Here the wait sits inside, and after, a branch
// on the softmax's own result (the vote on alpha), which it cannot be hoisted across. The second
// wait is free when the first ran.
//
// wgmma.wait_group is .sync.aligned: every thread of the warpgroup must take the same branch to
// it. A branch on a warp vote (__any_sync) is uniform per warp only: until the seventh session
// the KS == 1 kernels had one, and the gate's synccheck found their warps at different
// wait_group instructions at (1,1,200,333) d=128 bf16 ("Mismatching warpgroup instruction pc
// between warps", NOTES.md).
// The guard: its condition reads alpha (so it stays after the softmax, and the wait with it)
// through a mask that is 0 at run time (KParams::zero, which the compiler cannot see), under a
// warp vote: true on every thread, so the warpgroup reaches the wait at one instruction, with no
// barrier among its warps, and warp-uniform to ptxas, so it puts no WARPSYNC in front of the
// wait. Inside, a warp still skips the FMULs when none of its rows moved (no .aligned
// instruction there). The SASS is the pre-fix warp-vote kernel's plus one VOTE. Two other
// correct guards measured 1-4% slower and were removed (NOTES.md, seventh session; in git at
// 88befef and a58f1e8): a warpgroup vote (bar.red.or), on whose result ptxas blocks
// mid-softmax, and the same test without the warp vote, before which ptxas puts WARPSYNC.ALL.
template <class C>
__device__ __forceinline__ void wait_pv_and_rescale(float (&o)[C::OA / 2], const float (&alpha)[2],
                                                    uint32_t zero) {
  const bool moved = alpha[0] != 1.f || alpha[1] != 1.f;
  const bool take = (__float_as_uint(alpha[0]) & zero) == 0u;
  if (__any_sync(0xffffffffu, take)) {
    wgmma_wait<0>();
    pin(o);
    if (__any_sync(0xffffffffu, moved)) {
#pragma unroll
      for (int i = 0; i < C::OA / 8; ++i) {
        o[4 * i + 0] *= alpha[0];
        o[4 * i + 1] *= alpha[0];
        o[4 * i + 2] *= alpha[1];
        o[4 * i + 3] *= alpha[1];
      }
    }
  }
  wgmma_wait<0>();
  pin(o);
}

// CHAIN's item boundary: the P·V wait, O left as it is (it belongs to the previous item), behind
// the same guard but on the row sums l, so that ptxas keeps every exponential of the softmax above
// the wait (on alpha alone it put 64 of the 66 below it, serialised behind P·V).
template <class C>
__device__ __forceinline__ void wait_pv_after_softmax(float (&o)[C::OA / 2], const float (&l)[2], uint32_t zero) {
  const bool take = ((__float_as_uint(l[0]) | __float_as_uint(l[1])) & zero) == 0u;
  if (__any_sync(0xffffffffu, take)) {
    wgmma_wait<0>();
    pin(o);
  }
  wgmma_wait<0>();
  pin(o);
}

template <class C>
__device__ __forceinline__ void convert_p(const float (&s)[C::BN / 2], uint32_t (&pf)[C::BN / 4]) {
#pragma unroll
  for (int j = 0; j < C::BN / 4; ++j) pf[j] = pack2<typename C::T>(s[2 * j], s[2 * j + 1]);
}

// Folds another partial (O, m, l) of this thread's rows, ml = (m0, m1, l0, l1) and load_o(i) its
// i-th float4 of O, into this thread's own: each side weighs exp2(its m - M), 0 where it saw no
// visible key (m = -inf, l = 0, O = 0). SYM: every product rounded, then one add (no FMA), so
// that the result does not depend on which partial is whose.
template <class C, bool SYM, class LoadO>
__device__ __forceinline__ void fold_partial(float (&o)[C::OA / 2], float (&m)[2], float (&lt)[2],
                                             const float4 ml, LoadO load_o) {
  auto fold = [](float a, float wa, float b, float wb) {
    return SYM ? __fadd_rn(__fmul_rn(a, wa), __fmul_rn(b, wb)) : a * wa + b * wb;
  };
  const float mo[2] = {ml.x, ml.y}, lo[2] = {ml.z, ml.w};
  float wa[2], wb[2];
#pragma unroll
  for (int hh = 0; hh < 2; ++hh) {
    const float M = fmaxf(m[hh], mo[hh]);
    wa[hh] = m[hh] == -INFINITY ? 0.f : fast_exp2f(m[hh] - M);
    wb[hh] = mo[hh] == -INFINITY ? 0.f : fast_exp2f(mo[hh] - M);
    m[hh] = M;
    lt[hh] = fold(lt[hh], wa[hh], lo[hh], wb[hh]);
  }
#pragma unroll
  for (int i = 0; i < C::D / 8; ++i) {
    const float4 v = load_o(i);
    o[4 * i + 0] = fold(o[4 * i + 0], wa[0], v.x, wb[0]);
    o[4 * i + 1] = fold(o[4 * i + 1], wa[0], v.y, wb[0]);
    o[4 * i + 2] = fold(o[4 * i + 2], wa[1], v.z, wb[1]);
    o[4 * i + 3] = fold(o[4 * i + 3], wa[1], v.w, wb[1]);
  }
}

// The fp32 copy's loads and stores: in global memory through L2 only (each slot is read back by
// the thread that wrote it, a flush later), in shared memory plainly.
template <class C>
__device__ __forceinline__ float4 fl_load(const float4* a) {
  if constexpr (C::FL_GLOBAL) return __ldcg(a);  // L2: written by this thread a flush ago
  else return *a;
}
template <class C>
__device__ __forceinline__ void fl_store(float4* a, float4 v) {
  if constexpr (C::FL_GLOBAL) __stcg(a, v);
  else *a = v;
}

// FLUSH_KEYS: O's accumulator (relative to the row max m) into the fp32 copy at fl (relative to
// m_fl, the max at the previous flush), then restarted from zero. Every slot of the copy is read
// and written by its owning thread only, so no barrier is needed. `first`: the copy is not read
// (it holds whatever the memory held).
template <class C>
__device__ __forceinline__ void flush_o(float (&o)[C::OA / 2], const float (&m)[2], float (&m_fl)[2], bool first,
                                        float4* fl) {
  float w[2] = {0.f, 0.f};
  if (!first) {
    w[0] = fast_exp2f(m_fl[0] - m[0]);
    w[1] = fast_exp2f(m_fl[1] - m[1]);
  }
#pragma unroll
  for (int i = 0; i < C::OA / 8; ++i) {
    float4 c = first ? make_float4(0.f, 0.f, 0.f, 0.f) : fl_load<C>(fl + i * 128);
    c.x = fmaf(c.x, w[0], o[4 * i + 0]);
    c.y = fmaf(c.y, w[0], o[4 * i + 1]);
    c.z = fmaf(c.z, w[1], o[4 * i + 2]);
    c.w = fmaf(c.w, w[1], o[4 * i + 3]);
    fl_store<C>(fl + i * 128, c);
  }
  m_fl[0] = m[0];
  m_fl[1] = m[1];
#pragma unroll
  for (int i = 0; i < C::OA / 2; ++i) o[i] = 0.f;
}

// FLUSH_KEYS, after the last P·V, where a flush happened: the copy folded back into O (relative
// to m).
template <class C>
__device__ __forceinline__ void unflush_o(float (&o)[C::OA / 2], const float (&m)[2], const float (&m_fl)[2],
                                          const float4* fl) {
  const float w[2] = {fast_exp2f(m_fl[0] - m[0]), fast_exp2f(m_fl[1] - m[1])};
#pragma unroll
  for (int i = 0; i < C::OA / 8; ++i) {
    const float4 c = fl_load<C>(fl + i * 128);
    o[4 * i + 0] = fmaf(c.x, w[0], o[4 * i + 0]);
    o[4 * i + 1] = fmaf(c.y, w[0], o[4 * i + 1]);
    o[4 * i + 2] = fmaf(c.z, w[1], o[4 * i + 2]);
    o[4 * i + 3] = fmaf(c.w, w[1], o[4 * i + 3]);
  }
}

// ---------------------------------------------------------------------------------------------
// The kernel.
// ---------------------------------------------------------------------------------------------
struct KParams {
  float* lse;
  void* o;                      // split-KV: the combine writes O directly (16-byte rows)
  int64_t o_sb, o_sh, o_ss;
  int S_q, S_k, H;
  unsigned bh_count, num_m_tiles;
  float scale_log2;
  uint32_t zero;  // always 0: wait_pv_and_rescale's guard
  unsigned next_stride;  // NEXT_PREFETCH: CTAs resident at once (SMs x MINB); 0: no prefetch
  // SK_TAIL (persistent kernel): whole items per CTA before the split tail, and the tail's key
  // tiles (0: no split); the per-call workspace: per cut and consumer warpgroup, a partial
  // ([D/8 float4 of O, then (m0, m1, l0, l1)][thread]) and two words (tickets taken, ready).
  unsigned sk_full, sk_tiles;
  float4* sk_part;
  unsigned* sk_flag;
  unsigned tail_heads;  // CAUSAL_TAIL: the last heads whose items run heads fastest (0: none)
  float4* fl_ws;        // FLUSH_KEYS, FL_GLOBAL: the copies of O, one slot per CTA ([warpgroup][float4][thread])
};

// SK_TAIL hand-over between the two pieces of a cut item (different CTAs): the first writes its
// partial, then raises the ready word with release semantics; the second acquires it.
__device__ __forceinline__ void st_release_gpu(unsigned* a, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(a), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned ld_acquire_gpu(const unsigned* a) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(a) : "memory");
  return v;
}

// ---- SK_TAIL: of the two pieces of a cut item, the first to finish (by ticket) leaves its
// partial (O, m, l) in the workspace and stores nothing (returns false); the second folds it into
// its own (returns true) and runs the epilogue. Only a warpgroup that took the second ticket
// waits, and then on a piece that has already taken the first: it is running, and waits for
// nothing. The fold is symmetric in the two pieces (products rounded, then one add: no FMA), so
// the bits do not depend on which finished first. `cut` counts per cut and consumer warpgroup. ----
template <class C>
__device__ __forceinline__ bool sk_hand_over(const KParams& p, unsigned cut, float (&o)[C::OA / 2], float (&m)[2],
                                             float (&lt)[2], volatile unsigned* ticket, int rg, bool leader) {
  const int tl = int(threadIdx.x) % 128;
  float4* const part = p.sk_part + size_t(cut) * (C::D / 8 + 1) * 128;
  unsigned* const flag = p.sk_flag + 2 * cut;  // [0]: tickets taken, [1]: partial ready
  if (leader) *ticket = atomicAdd(flag, 1u);
  warpgroup_bar(1 + rg);
  if (*ticket == 0u) {
#pragma unroll
    for (int i = 0; i < C::D / 8; ++i)
      __stcg(part + i * 128 + tl, make_float4(o[4 * i], o[4 * i + 1], o[4 * i + 2], o[4 * i + 3]));
    __stcg(part + (C::D / 8) * 128 + tl, make_float4(m[0], m[1], lt[0], lt[1]));
    __threadfence();
    warpgroup_bar(1 + rg);  // every thread's partial is out before the flag goes up
    if (leader) st_release_gpu(flag + 1, 1u);
    return false;
  }
  if (leader) {
    SpinGuard guard;
    while (ld_acquire_gpu(flag + 1) == 0u) guard.poll();
  }
  warpgroup_bar(1 + rg);  // the leader's acquire orders every thread's reads below
#if !ATTN_CONTROL_SK_NO_FOLD
  fold_partial<C, true>(o, m, lt, __ldcg(part + (C::D / 8) * 128 + tl),
                        [&](int i) { return __ldcg(part + i * 128 + tl); });
#endif
  return true;
}

// O /= l over this thread's two rows (row0 and row0 + 8), and with `lse` their log-sum-exp
// (lane t == 0 writes it, rows past S_q skipped).
template <class C>
__device__ __forceinline__ void normalise_o(const KParams& p, float (&o)[C::OA / 2], const float (&m)[2],
                                            const float (&lt)[2], int64_t bh, int row0, int t, bool lse) {
#pragma unroll
  for (int hh = 0; hh < 2; ++hh) {
    const float inv_l = 1.f / lt[hh];  // >= 1: the row max itself contributes exp2(0)
#pragma unroll
    for (int i = 0; i < C::D / 8; ++i) {
      o[4 * i + 2 * hh] *= inv_l;
      o[4 * i + 2 * hh + 1] *= inv_l;
    }
    const int row = row0 + 8 * hh;
    if (p.lse != nullptr && t == 0 && row < p.S_q && lse)
      p.lse[bh * p.S_q + row] = (m[hh] + log2f(lt[hh])) * kLn2;
  }
}

// This thread's O fragment into shared memory in the O tensor map's layout: 128-byte rows with
// 16-byte chunks XOR-swizzled by row, one block of `slab` bytes per 64 columns; r is the thread's
// first row in the block (the second is r + 8, whose swizzle is the same: g = r % 8).
template <class C, class T>
__device__ __forceinline__ void stage_o(unsigned char* smem, const float (&o)[C::OA / 2], int base, int slab, int r,
                                        int g, int t) {
#pragma unroll
  for (int hh = 0; hh < 2; ++hh) {
#pragma unroll
    for (int i = 0; i < C::D / 8; ++i) {
      const uint32_t off = uint32_t(base + (i / 8) * slab + (r + 8 * hh) * 128 + (((i % 8) ^ g) << 4) + 4 * t);
      *reinterpret_cast<uint32_t*>(smem + off) = pack2<T>(o[4 * i + 2 * hh], o[4 * i + 2 * hh + 1]);
    }
  }
}

template <class C, bool CAUSAL>
__global__ void __launch_bounds__(C::THREADS, C::MINB)
attn_fwd_wgmma_kernel(const KParams p, const __grid_constant__ CUtensorMap tm_q,
                      const __grid_constant__ CUtensorMap tm_k,
                      const __grid_constant__ CUtensorMap tm_v,
                      const __grid_constant__ CUtensorMap tm_o) {
  using T = typename C::T;
  constexpr int ST = C::NSTAGE;
  extern __shared__ unsigned char smem_raw[];
  // Swizzled TMA tiles and wgmma operands want 1024-byte alignment; dynamic shared memory only
  // promises 16, so round up (SMEM_BYTES includes the slack). The offset is the same in every
  // CTA of a cluster (same kernel, same static layout), so mapa of a local address is the peer's.
  const uint32_t raw = smem_u32(smem_raw);
  const uint32_t sb = (raw + 1023u) & ~1023u;
  unsigned char* const smem = smem_raw + (sb - raw);

  const int tid = threadIdx.x;
  const int wg = __shfl_sync(0xffffffffu, tid / 128, 0);  // warp-uniform role
  const bool producer = C::PW ? wg == C::CWG : wg == 0;
#if ATTN_STAMPS
  // (a) entry, held until the slot is known (after griddepcontrol.wait).
  ulonglong2 st_entry = make_ulonglong2(0, 0);
  if (tid == C::PROD0) {
    st_entry = stamp_now();
    uint32_t smid;
    asm volatile("mov.u32 %0, %%smid;\n" : "=r"(smid));
    st_entry.y |= uint64_t(smid) << 56;  // the SM, in clock64's unused top byte
  }
#endif

  // Split-KV: the cluster shares one work item (query tile); CTA `crank` takes key tiles
  // [j0, j1) of it.
  uint32_t crank = 0, csize = 1;
  unsigned work = blockIdx.x;
  if constexpr (C::SPLIT) {
    crank = cluster_rank();
    csize = cluster_size();
    work = blockIdx.x / csize;
  }
  // Work item -> (batch*head, query tile). Causal: query tiles last to first, so the longest
  // CTAs start first; head by head (CAUSAL_BY_HEAD) so that the CTAs running at once share a few
  // heads' K/V in L2, or heads fastest. Non-causal: query tiles fastest (a head's K/V stay in L2).
  auto item_of = [&](unsigned w, int& bh_, int& m_tile_) {
    const unsigned by_head = (p.bh_count - p.tail_heads) * p.num_m_tiles;  // items before the tail
    if (CAUSAL && CAUSAL_BY_HEAD && w < by_head) {
      bh_ = int(w / p.num_m_tiles);
      m_tile_ = int(p.num_m_tiles - 1 - w % p.num_m_tiles);
    } else if (CAUSAL && CAUSAL_BY_HEAD) {  // the last tail_heads heads, heads fastest
      bh_ = int(p.bh_count - p.tail_heads + (w - by_head) % p.tail_heads);
      m_tile_ = int(p.num_m_tiles - 1 - (w - by_head) / p.tail_heads);
    } else if (CAUSAL) {
      bh_ = int(w % p.bh_count);
      m_tile_ = int(p.num_m_tiles - 1 - w / p.bh_count);
    } else {
      m_tile_ = int(w % p.num_m_tiles);
      bh_ = int(w / p.num_m_tiles);
    }
  };
  // One work item: (batch*head, query tile) and the key tiles [j0, j1) this CTA loads for it.
  struct Item {
    int bh, b, h, m0, n_total, j0, j1, n_tiles;
    int cut;  // SK_TAIL: the cut this piece shares with another CTA's piece; -1: a whole item
  };
  auto decode = [&](unsigned w) {
    Item it;
    int m_tile;
    item_of(w, it.bh, m_tile);
    it.b = it.bh / p.H;
    it.h = it.bh % p.H;
    it.m0 = m_tile * C::BM;
    const int n_end = CAUSAL ? min(p.S_k, it.m0 + C::BM) : p.S_k;
    it.n_total = attn::ceil_div(n_end, C::BN);
    it.j0 = 0;
    it.j1 = it.n_total;
    if constexpr (C::SPLIT) {
      it.j0 = int((crank * uint32_t(it.n_total)) / csize);
      it.j1 = int(((crank + 1) * uint32_t(it.n_total)) / csize);
    }
    it.n_tiles = it.j1 - it.j0;  // key tiles this CTA loads (may be 0 in a causal split)
    it.cut = -1;
    return it;
  };
  // Persistent: this CTA takes items work, work + gridDim.x, ...; otherwise one (every loop over
  // this CTA's items below then runs once, and ring offsets are 0).
  constexpr bool PERS = C::PERSISTENT && !CAUSAL;
  // SK_TAIL: after p.sk_full whole items, this CTA's run [sk_a, sk_b) of the tail's key tiles
  // (tail items in order, each nt key tiles). A run is at least nt long (the host sees to it), so
  // it starts inside an item (cut sk_a: this CTA's cut - 1, whose other piece is the previous
  // CTA's last) or ends inside one (cut sk_b: this CTA's cut), never both in the same item.
  const bool sk = PERS && p.sk_tiles != 0u;
  const unsigned nt = PERS ? unsigned(attn::ceil_div(p.S_k, C::BN)) : 1u;
  const unsigned sk_a = sk ? work * p.sk_tiles / gridDim.x : 0u;
  const unsigned sk_b = sk ? (work + 1u) * p.sk_tiles / gridDim.x : 0u;
  const unsigned n_mine = !PERS ? 1u
                          : sk  ? p.sk_full + (sk_b - 1u) / nt - sk_a / nt + 1u
                                : (p.bh_count * p.num_m_tiles - work + gridDim.x - 1) / gridDim.x;
  // This CTA's k-th piece of work: a whole item, or a piece of a tail item.
  auto unit = [&](unsigned k) {
    if (!sk || k < p.sk_full) return decode(work + k * gridDim.x);
    const unsigned ti = sk_a / nt + (k - p.sk_full);
    Item u = decode(p.sk_full * gridDim.x + ti);
    const unsigned lo = max(sk_a, ti * nt) - ti * nt, hi = min(sk_b, (ti + 1u) * nt) - ti * nt;
    u.j0 = int(lo);
    u.j1 = int(hi);
    u.n_tiles = int(hi - lo);
    u.cut = lo > 0u ? int(work) - 1 : hi < nt ? int(work) : -1;
    return u;
  };
  const Item item0 = unit(0);  // the first (without PERS: the only) piece of work, decoded once

  const uint32_t bar = sb + C::BAR_OFF;
  const uint32_t q_full = bar;
  auto k_full = [&](int s) { return bar + 8u * uint32_t(1 + s); };
  auto k_empty = [&](int s) { return bar + 8u * uint32_t(1 + ST + s); };
  auto v_full = [&](int s) { return bar + 8u * uint32_t(1 + 2 * ST + s); };
  auto v_empty = [&](int s) { return bar + 8u * uint32_t(1 + 3 * ST + s); };
  // Persistent: every consumer warpgroup's last Q·Kᵀ of the item has retired (the Q tile may be
  // reloaded, and the last tile's K stage may take O).
  const uint32_t q_empty = bar + 8u * uint32_t(1 + 4 * ST);
  // CHAIN: item k's Q is in buffer k & 1, with its own full and empty barriers.
  constexpr bool CH = C::CHAIN && !CAUSAL;
  auto qf = [&](unsigned k) { return CH && (k & 1u) ? bar + 8u * uint32_t(2 + 4 * ST) : q_full; };
  auto qe = [&](unsigned k) { return CH && (k & 1u) ? bar + 8u * uint32_t(3 + 4 * ST) : q_empty; };

  if (tid == 0) {
    mbar_init(q_full, 1);
    for (int s = 0; s < ST; ++s) {
      mbar_init(k_full(s), 1);        // the producer's arrive.expect_tx (+ the TMA bytes)
      mbar_init(v_full(s), 1);
      mbar_init(k_empty(s), C::RELEASERS);  // one release per consumer warpgroup reading it
      mbar_init(v_empty(s), C::RELEASERS);
    }
    if (PERS) mbar_init(q_empty, C::CWG);
    if (CH) {
      mbar_init(qf(1), 1);
      mbar_init(qe(1), C::CWG);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  if constexpr (C::LSUM) {
    // The ones block: 2048 bytes of fp16 1.0, one 16-byte store per thread of the first
    // warpgroup, made visible to wgmma (the async proxy) before the barrier below.
    if (tid < C::ONES_BYTES / 16)
      *reinterpret_cast<uint4*>(smem + C::ONES_OFF + 16 * tid) = make_uint4(0x3C003C00u, 0x3C003C00u,
                                                                            0x3C003C00u, 0x3C003C00u);
    fence_proxy_async();
  }
  __syncthreads();  // the last CTA-wide barrier: the producer warpgroup leaves early

  if (producer) {
    // ---- Producer warpgroup (PW: warp): one thread issues every TMA load. -------------------
    if constexpr (!C::PW) setmaxnreg_dec<PERS ? C::PRODUCER_REGS_PERS : C::PRODUCER_REGS>();
    if (tid == C::PROD0) {
      prefetch_tmap(&tm_q);
      prefetch_tmap(&tm_k);
      prefetch_tmap(&tm_v);
      prefetch_tmap(&tm_o);
      pdl_wait();  // everything above overlaps the previous kernel's tail (PDL)
#if ATTN_STAMPS
      const ulonglong2 st_waited = stamp_now();  // (b)
      unsigned st_calls = stamp_calls();
#endif
      uint32_t ring = 0;  // K/V tiles this CTA loaded for its earlier items (persistent)
#pragma unroll 1
      for (unsigned k = 0; k < n_mine; ++k) {
        const unsigned wk = work + k * gridDim.x;  // (not persistent: the item)
        const Item it = PERS && k > 0 ? unit(k) : item0;
        const int b = it.b, h = it.h, m0 = it.m0, j0 = it.j0, n_tiles = it.n_tiles;
        auto load_kv = [&](int i) {
          const int j = j0 + i;
          const int s = PERS ? int((ring + uint32_t(i)) % ST) : i % ST;
          const uint32_t ph = PERS ? ((ring + uint32_t(i)) / ST) & 1u : uint32_t(i / ST) & 1u;
          // One K or V tile into its ring stage, once the stage is free. Box bytes count in full
          // even where the box hangs past S_k (TMA zero-fills them).
          auto load_tile = [&](int ring_off, const CUtensorMap* tm, uint32_t empty, uint32_t full) {
            mbar_wait(empty, ph ^ 1u);
            mbar_arrive_expect_tx(full, C::KV_BYTES);
#pragma unroll
            for (int sl = 0; sl < C::SLABS; ++sl)
              tma_load_4d(sb + ring_off + s * C::KV_BYTES + sl * C::KV_SLAB, tm, full, 64 * sl, j * C::BN, h, b);
          };
          load_tile(C::K_OFF, &tm_k, k_empty(s), k_full(s));
          load_tile(C::V_OFF, &tm_v, v_empty(s), v_full(s));
          if constexpr (PERS) {
            // Once the ring is full (behind this CTA's own loads in the TMA unit's queue), this
            // CTA's next piece of work's Q (and first K/V tiles): from DRAM into L2 while this one
            // runs, so that its Q load at q_empty waits on L2.
            if (i == min(ST, n_tiles) - 1 && k + 1 < n_mine) {
              const Item nx = unit(k + 1);
#pragma unroll
              for (int sl = 0; sl < C::SLABS; ++sl) {
                tma_prefetch_l2_4d(&tm_q, 64 * sl, nx.m0, nx.h, nx.b);
                if constexpr (NEXT_PREFETCH >= 2) {
                  tma_prefetch_l2_4d(&tm_k, 64 * sl, nx.j0 * C::BN, nx.h, nx.b);
                  tma_prefetch_l2_4d(&tm_v, 64 * sl, nx.j0 * C::BN, nx.h, nx.b);
                }
              }
            }
          } else if constexpr (NEXT_PREFETCH != 0 && !C::SPLIT && C::KS == 1 && C::MINB == 1) {
            // The same for the item the CTA that replaces this one will most likely take.
            const unsigned nw = wk + p.next_stride;
            if (i == min(ST, n_tiles) - 1 && p.next_stride != 0u && nw < p.bh_count * p.num_m_tiles) {
              int nbh, nmt;
              item_of(nw, nbh, nmt);
              const int nb = nbh / p.H, nh = nbh % p.H;
#pragma unroll
              for (int sl = 0; sl < C::SLABS; ++sl) {
                tma_prefetch_l2_4d(&tm_q, 64 * sl, nmt * C::BM, nh, nb);
                if constexpr (NEXT_PREFETCH >= 2) {
                  tma_prefetch_l2_4d(&tm_k, 64 * sl, 0, nh, nb);
                  tma_prefetch_l2_4d(&tm_v, 64 * sl, 0, nh, nb);
                }
              }
            }
          }
        };
        // Persistent, after the first item: this item's first K/V tile goes out as soon as its
        // stage is free, then its Q once every consumer warpgroup's last Q·Kᵀ of the previous
        // item has retired (the consumers are still in that item's last softmax, P·V and
        // epilogue: the load hides behind them).
        // CHAIN: Q's two buffers take turns, and this item's buffer is free once every consumer
        // warpgroup's last Q·Kᵀ of item k - 2 has retired (long since: the previous item's loads
        // are all out by now).
        const int pre = PERS && !CH && k > 0 ? min(1, n_tiles) : 0;
#pragma unroll 1
        for (int i = 0; i < pre; ++i) load_kv(i);
        if (PERS && !CH && k > 0) mbar_wait(q_empty, (k - 1) & 1u);
        if (CH && k > 1) mbar_wait(qe(k), ((k - 2) >> 1) & 1u);
        const uint32_t q_dst = sb + C::Q_OFF + (k & 1u) * C::Q_BYTES * (CH ? 1u : 0u);
        mbar_arrive_expect_tx(qf(k), C::Q_BYTES);
#pragma unroll
        for (int sl = 0; sl < C::SLABS; ++sl) tma_load_4d(q_dst + sl * C::Q_SLAB, &tm_q, qf(k), 64 * sl, m0, h, b);
#pragma unroll 1
        for (int i = pre; i < n_tiles; ++i) load_kv(i);
        ring += uint32_t(n_tiles);
      }
#if ATTN_STAMPS
      stamp_defer(st_calls);  // the loads above go out first
      if (blockIdx.x < kStampCtas) {
        ulonglong2* const row = stamp_row(st_calls);
        row[0] = st_entry;
        row[1] = st_waited;
      }
#endif
    }
    pdl_launch_dependents();
    if constexpr (C::SPLIT) {  // every thread of every CTA takes part in both cluster barriers
      cluster_sync_all();
      cluster_sync_all();
    }
  } else {
    // ---- Consumer warpgroups: 64 query rows each. --------------------------------------------
    if constexpr (!C::PW) setmaxnreg_inc<PERS ? C::CONSUMER_REGS_PERS : C::CONSUMER_REGS>();
    pdl_wait();  // this thread writes o / lse: order it after the previous grid
#if ATTN_STAMPS
    // Consumer warpgroup 0's first thread stamps points c..h of this CTA's row. c..e are held in
    // registers until the main loop is over, so that no wgmma waits for the counter's load.
    // (With SHORT_FOLD_LAST the key split's folding warpgroup is the last one: it stamps.)
    constexpr int st_tid = C::CONS0 + 128 * (C::KS > 1 && SHORT_FOLD_LAST ? C::KS - 1 : 0);
    const bool st_on = tid == st_tid && blockIdx.x < kStampCtas;
    ulonglong2* st_row = nullptr;
    ulonglong2 st_c = make_ulonglong2(0, 0), st_d = st_c, st_e = st_c;
    unsigned st_calls = 0;
    if (st_on) st_calls = stamp_calls();
#endif
    const int cw = wg - C::CONS0 / 128;
    const int rg = cw / C::KS;  // row group: this warpgroup's 64 query rows are 64*rg..
    const int kr = cw % C::KS;  // key-split rank: it computes CTA key tiles kr, kr+KS, ...
    const int warp_in_wg = (tid / 32) % 4;
    const int lane = tid % 32, g = lane / 4, t = lane % 4;
    const bool leader = (tid % 128) == 0;  // releases stages and issues the O store
    uint32_t ring = 0;  // K/V tiles of this CTA's earlier items (persistent)
    // PERS_DEFER: the stage the leader's last O store reads, released later (-1: none).
    int pend = -1;
    auto release_pend = [&]() {
      if constexpr (PERS && PERS_DEFER) {
        if (leader && pend >= 0) {
          tma_store_drain();
          mbar_arrive(k_empty(pend));
          mbar_arrive(v_empty(pend));
        }
        pend = -1;
      }
    };
    if constexpr (CH) {
      // ---- CHAIN (PERSIST_D64): this warpgroup's items run as one chain of steps. Where an item
      // follows another, its first Q·Kᵀ is issued beside the previous item's last P·V, its first
      // softmax runs under that P·V, and the previous item's O is normalised and stored where a
      // step would rescale; so no warpgroup fills or drains an item with the tensor cores idle.
      // Non-causal, so a warpgroup computes every key tile of an item or (rows past S_q) none. --
      float o[C::OA / 2];
      float s[C::BN / 2];
      uint32_t pf[C::BN / 4];
      float m[2], l[2], alpha[2];
#pragma unroll
      for (int i = 0; i < C::OA / 2; ++i) o[i] = 0.f;
      const float scale_log2 = p.scale_log2;
      const int n_full = p.S_k / C::BN;  // tiles j < n_full need no mask
      auto k_desc = [&](int st) { return smem_desc(sb + C::K_OFF + st * C::KV_BYTES, 16, 1024); };
      auto v_desc = [&](int st) { return smem_desc(sb + C::V_OFF + st * C::KV_BYTES, C::KV_SLAB, 1024); };
      auto stg = [&](int i) { return int((ring + uint32_t(i)) % ST); };
      auto phs = [&](int i) { return ((ring + uint32_t(i)) / ST) & 1u; };
      // The pending item, whose last P·V is not yet issued (its P is in pf): 0 if none, else
      // 1 + (its index << 5 | the phase << 4 | the stage of its last V), one register.
      static_assert(ST <= 16, "the pending item's stage takes 4 bits");
      uint32_t pend = 0;
      auto pend_k = [&]() { return (pend - 1u) >> 5; };
      auto pend_sv = [&]() { return int((pend - 1u) & 15u); };
      auto pend_ph = [&]() { return ((pend - 1u) >> 4) & 1u; };
      float4* const ml_park = reinterpret_cast<float4*>(smem + C::ML_PARK_OFF) + (tid - C::CONS0);
      // O of item kk (m, l its softmax state) -> normalised, LSE, O's buffer -> TMA store; SK_TAIL's
      // fold first where the item is a piece. Then O restarts from zero.
      auto finish = [&](unsigned kk, const float (&mo)[2], const float (&lo)[2]) {
        const Item e = unit(kk);  // (decoded again: item0 kept live costs registers)
        // The lane's coordinates from %tid.x read again here (a volatile read: ptxas had spilled
        // them across the item rather than recompute them).
        uint32_t ftid;
        asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(ftid));
        const int warp_in_wg = int(ftid / 32) % 4, g = int(ftid % 32) / 4, t = int(ftid % 4);
        const int row0 = e.m0 + 64 * rg + 16 * warp_in_wg + g;
        float me[2] = {mo[0], mo[1]}, lt[2] = {lo[0], lo[1]};
        bool store_o = true;
        if (e.cut >= 0)
          store_o = sk_hand_over<C>(p, unsigned(e.cut) * C::CWG + unsigned(rg), o, me, lt,
                                    reinterpret_cast<volatile unsigned*>(smem + C::SK_OFF) + rg, rg, leader);
        normalise_o<C>(p, o, me, lt, int64_t(e.bh), row0, t, store_o);
        // This warpgroup's rows of O's buffer: its previous store must have read them.
        if (leader) tma_store_drain();
        warpgroup_bar(1 + rg);
        if (store_o) stage_o<C, T>(smem, o, C::O_OFF, C::Q_SLAB, 64 * rg + 16 * warp_in_wg + g, g, t);
        fence_proxy_async();
        warpgroup_bar(1 + rg);
        if (leader && e.m0 + 64 * rg < p.S_q && store_o) {
#pragma unroll
          for (int sl = 0; sl < C::SLABS; ++sl)
            tma_store_4d(&tm_o, sb + C::O_OFF + sl * C::Q_SLAB + 64 * rg * 128, 64 * sl, e.m0 + 64 * rg, e.h, e.b);
          tma_store_commit();
        }
#pragma unroll
        for (int i = 0; i < C::OA / 2; ++i) o[i] = 0.f;
      };
      auto row_sums = [&](float (&lo)[2]) {
#pragma unroll
        for (int hh = 0; hh < 2; ++hh) {
          float x = l[hh];
          x += __shfl_xor_sync(0xffffffffu, x, 1);
          x += __shfl_xor_sync(0xffffffffu, x, 2);
          lo[hh] = x;
        }
      };
      // The pending item's last P·V alone, then its O (before an item this warpgroup skips, and
      // after the last).
      auto drain = [&]() {
        mbar_wait(v_full(pend_sv()), pend_ph());
        pin(o);
        pin(pf);
        wgmma_fence();
        issue_pv<C>(o, pf, v_desc(pend_sv()));
        wgmma_commit();
        wgmma_wait<0>();
        pin(o);
        pin(pf);
        if (leader) mbar_arrive(v_empty(pend_sv()));
        float lo[2];
        row_sums(lo);
        finish(pend_k(), m, lo);
        pend = 0;
      };
#pragma unroll 1
      for (unsigned k = 0; k < n_mine; ++k) {
        const Item it = unit(k);
        const int m0 = it.m0, j0 = it.j0, n_tiles = it.n_tiles;
        const int row0 = m0 + 64 * rg + 16 * warp_in_wg + g;
        // Every warpgroup computes every key tile of every item, its rows past S_q too (Q's TMA
        // box zero-fills them; nothing of them is stored): a branch around an item some warpgroup
        // skips (draining its pending item there) cost ptxas's uniform datapath in the step loop,
        // every wgmma descriptor then an R2UR (623 instructions per step against 557; the kernel
        // 9% slower than one CTA per item, H100 call 1). The SK tail, which counts every item as
        // whole, is the better balanced for it.
        const int n_wg = n_tiles;
        const uint64_t q_desc = smem_desc(sb + C::Q_OFF + (k & 1u) * C::Q_BYTES + rg * 64 * 128, 16, 1024);
        mbar_wait(qf(k), (k >> 1) & 1u);
#if ATTN_STAMPS
        // CHAIN: points c..h are the times warpgroup 0's first thread has the Q of items 0..5
        // (the producer's a and b as in the other kernels); their differences are item times.
        if (st_on && k < 6) {
          if (st_row == nullptr) st_row = stamp_row(st_calls);
          st_row[2 + k] = stamp_now();
        }
#endif
        {
          const int s0 = stg(0);
          mbar_wait(k_full(s0), phs(0));
          if (pend) {
            // The boundary: S(0) of this item beside the pending item's last P·V.
            const int sv_p = pend_sv();
            mbar_wait(v_full(sv_p), pend_ph());
            pin(o);
            pin(pf);
            wgmma_fence();
            issue_qk<C>(s, q_desc, k_desc(s0));
            wgmma_commit();
            issue_pv<C>(o, pf, v_desc(sv_p));
            wgmma_commit();
            wgmma_wait<1>();
            pin(s);
            if (leader) {
              mbar_arrive(k_empty(s0));
              if (n_wg == 1) mbar_arrive(qe(k));
            }
            {
              float lo[2];
              row_sums(lo);
              *ml_park = make_float4(m[0], m[1], lo[0], lo[1]);  // read back by this thread only
            }
            m[0] = m[1] = -INFINITY;
            l[0] = l[1] = 0.f;
            if (j0 >= n_full) apply_mask<C, false>(s, row0, j0 * C::BN, p.S_k, t);
            softmax_tile<C>(s, m, l, alpha, scale_log2);
            wait_pv_after_softmax<C>(o, l, p.zero);
            pin(pf);
            if (leader) mbar_arrive(v_empty(pend_sv()));
            convert_p<C>(s, pf);
            const float4 ml = *ml_park;
            const float mo[2] = {ml.x, ml.y}, lo[2] = {ml.z, ml.w};
            finish(pend_k(), mo, lo);
          } else {
            wgmma_fence();
            issue_qk<C>(s, q_desc, k_desc(s0));
            wgmma_commit();
            wgmma_wait<0>();
            pin(s);
            if (leader) {
              mbar_arrive(k_empty(s0));
              if (n_wg == 1) mbar_arrive(qe(k));
            }
            m[0] = m[1] = -INFINITY;
            l[0] = l[1] = 0.f;
            if (j0 >= n_full) apply_mask<C, false>(s, row0, j0 * C::BN, p.S_k, t);
            softmax_tile<C>(s, m, l, alpha, scale_log2);
            convert_p<C>(s, pf);
          }
        }
#pragma unroll 1
        for (int u = 1; u < n_wg; ++u) {
          const int j = j0 + u;
          const int sk = stg(u), sv = stg(u - 1);
          // The overlapped loop's step (written out there again: as one helper both call, its
          // codegen moved in the d=128 persistent kernel, 597 of 3384 opcodes, NOTES.md).
          mbar_wait(k_full(sk), phs(u));
          mbar_wait(v_full(sv), phs(u - 1));
          pin(o);
          pin(pf);
          wgmma_fence();
          issue_qk<C>(s, q_desc, k_desc(sk));
          wgmma_commit();
          issue_pv<C>(o, pf, v_desc(sv));
          wgmma_commit();
          wgmma_wait<1>();
          pin(s);
          if (leader) {
            mbar_arrive(k_empty(sk));
            if (u == n_wg - 1) mbar_arrive(qe(k));  // the item's last read of its Q buffer
          }
          if (j >= n_full) apply_mask<C, false>(s, row0, j * C::BN, p.S_k, t);
          softmax_tile<C>(s, m, l, alpha, scale_log2);
          wait_pv_and_rescale<C>(o, alpha, p.zero);
          pin(pf);
          if (leader) mbar_arrive(v_empty(sv));
          convert_p<C>(s, pf);
        }
        pend = 1u + (k << 5 | phs(n_wg - 1) << 4 | uint32_t(stg(n_wg - 1)));
        ring += uint32_t(n_tiles);
      }
      if (pend) drain();
      pdl_launch_dependents();
      if (leader) tma_store_drain();  // the last store has read O's buffer before the CTA leaves
    } else {  // (the loop below keeps its indentation)
#pragma unroll 1
    for (unsigned k = 0; k < n_mine; ++k) {
    const Item it = PERS && k > 0 ? unit(k) : item0;
    const int bh = it.bh, b = it.b, h = it.h, m0 = it.m0, n_total = it.n_total;
    const int j0 = it.j0, j1 = it.j1, n_tiles = it.n_tiles;
    // Ring stage and phase of this item's i-th key tile.
    auto stg = [&](int i) { return PERS ? int((ring + uint32_t(i)) % ST) : i % ST; };
    auto phs = [&](int i) { return PERS ? ((ring + uint32_t(i)) / ST) & 1u : uint32_t(i / ST) & 1u; };
    const int warp_row_min = m0 + 64 * rg + 16 * warp_in_wg;
    const int row0 = warp_row_min + g;  // this lane's rows: row0 and row0 + 8
    // Tiles j < n_full (absolute index) need no mask for this warp.
    int n_full = p.S_k / C::BN;
    if (CAUSAL) n_full = min(n_full, (warp_row_min + 1) / C::BN);
    // Key tiles (of this CTA's n_tiles) this warpgroup computes. Without ping-pong: none if all
    // its rows are past S_q; if causal, only up to its own last row. With ping-pong every
    // consumer warpgroup takes the same number of turns, so all compute all n_tiles (a tile that
    // is fully masked for a row leaves its m, l and O unchanged: exp2(-inf) = 0, alpha = 1).
    const int wg_row0 = m0 + 64 * rg;
    int n_wg = 0;
    if (C::PP) {
      n_wg = n_tiles;
    } else if (wg_row0 < p.S_q) {
      const int e = CAUSAL ? attn::ceil_div(min(p.S_k, wg_row0 + 64), C::BN) : n_total;
      n_wg = max(0, min(j1, e) - j0);
    }
    // Key split: of those n_wg tiles this warpgroup computes kr, kr+KS, ... (u-th: tix(u)).
    const int n_rows_tiles = n_wg;
    if constexpr (C::KS > 1) n_wg = n_rows_tiles > kr ? (n_rows_tiles - 1 - kr) / C::KS + 1 : 0;
    auto tix = [&](int u) { return C::KS > 1 ? kr + u * C::KS : u; };

    const uint64_t q_desc = smem_desc(sb + C::Q_OFF + rg * 64 * 128, 16, 1024);
    auto k_desc = [&](int s) { return smem_desc(sb + C::K_OFF + s * C::KV_BYTES, 16, 1024); };
    // L_TENSOR 2: P·ones reads the first 8 columns of the ones block.
    const uint64_t ones_desc = smem_desc(sb + C::ONES_OFF, 16, 1024);
    // (L_TENSOR 1: the second slab of [V | ones] is the ones block, wherever the stage is.)
    auto v_desc = [&](int s) {
      const uint32_t v = C::V_OFF + s * C::KV_BYTES;
      return smem_desc(sb + v, C::LT ? C::ONES_OFF - v : C::KV_SLAB, 1024);
    };

    // Ping-pong turns: warpgroup cw waits on barrier PPB+cw before issuing its GEMMs and, once
    // they are issued, hands the turn to warpgroup cw+1 (mod CWG). The last warpgroup gives the
    // first turn to warpgroup 0, and skips its final hand-over so that every barrier sees as many
    // arrivals as waits (no named barrier is left half-full at exit).
    constexpr int PPB = 4;  // ids 1..3 are the epilogue's per-warpgroup barriers
    auto pp_begin = [&]() {
      if constexpr (C::PP) named_bar_sync(PPB + cw, 256);
    };
    auto pp_end = [&](bool last) {
      if constexpr (C::PP) {
        if (!(last && cw == C::CWG - 1)) named_bar_arrive(PPB + (cw + 1) % C::CWG, 256);
      }
    };
    if constexpr (C::PP) {
      if (n_wg > 0 && cw == C::CWG - 1) named_bar_arrive(PPB, 256);
    }

    float o[C::OA / 2];
    float s[C::BN / 2];
    uint32_t pf[C::BN / 4];
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f}, alpha[2];
#pragma unroll
    for (int i = 0; i < C::OA / 2; ++i) o[i] = 0.f;
    const float scale_log2 = p.scale_log2;
    // FLUSH: the copy's max, and this thread's slots of it. The overlapped loop flushes after
    // steps FL_TILES, 2 FL_TILES, ... below its last (n_wg - 1), so the copy holds anything at
    // the end exactly when n_wg > FL_TILES + 1; the in-turn loop after tiles FL_TILES, ... below
    // its last, exactly when n_wg > FL_TILES.
    float m_fl[2] = {0.f, 0.f};
    auto fl = [&]() {
      const size_t slot = (C::FL_GLOBAL ? size_t(blockIdx.x) * C::CWG : 0) + cw;
      return (C::FL_GLOBAL ? p.fl_ws : reinterpret_cast<float4*>(smem + C::FL_OFF)) + slot * C::FL_F4 * 128 + tid % 128;
    };

    if (!C::OVL || n_wg == 0) release_pend();
    mbar_wait(q_full, k & 1u);
    ATTN_HOLD(st_c);  // (c)
    // Persistent: a warpgroup whose rows are all past S_q reads no Q; it still counts once.
    if (PERS && n_wg == 0 && leader) mbar_arrive(q_empty);

    if constexpr (C::OVL) {
      if (n_wg > 0) {
        // Tile 0: S(0), softmax, P(0). Nothing to overlap with yet.
        {
          const int i0 = tix(0), s0 = stg(i0);
          mbar_wait(k_full(s0), phs(i0));
          pp_begin();
          wgmma_fence();
          issue_qk<C>(s, q_desc, k_desc(s0));
          wgmma_commit();
          pp_end(false);
          release_pend();  // the previous item's O store has had this long to read its stage
          wgmma_wait<0>();
          pin(s);
          if (leader) {
            // Persistent: the item's last Q·Kᵀ has retired. Its K stage is kept for O.
            if (PERS && n_wg == 1) mbar_arrive(q_empty);
            else mbar_arrive(k_empty(s0));
          }
          if (j0 + i0 >= n_full) apply_mask<C, CAUSAL>(s, row0, (j0 + i0) * C::BN, p.S_k, t);
          softmax_tile<C>(s, m, l, alpha, scale_log2);  // O = 0: alpha unused
          ATTN_HOLD(st_d);  // (d)
          convert_p<C>(s, pf);
        }
        // One step: S(u) issued beside P(u-1)·V(u-1), the softmax of tile u under that P·V.
        auto step = [&](int u) {
          const int i = tix(u), ip = tix(u - 1);
          const int j = j0 + i;
          const int sk = stg(i), sv = stg(ip);
          mbar_wait(k_full(sk), phs(i));
          mbar_wait(v_full(sv), phs(ip));
          pin(o);
          pin(pf);
          pp_begin();
          wgmma_fence();
          issue_qk<C>(s, q_desc, k_desc(sk));  // S(j)
          wgmma_commit();
          issue_pv<C>(o, pf, v_desc(sv));      // O += P(j-1)·V(j-1)
          wgmma_commit();
          pp_end(false);
          wgmma_wait<1>();                     // S(j) has landed; P·V may still run
          pin(s);
          if (leader) {
            if (PERS && u == n_wg - 1) mbar_arrive(q_empty);  // as for tile 0
            else mbar_arrive(k_empty(sk));
          }
          if (j >= n_full) apply_mask<C, CAUSAL>(s, row0, j * C::BN, p.S_k, t);
          softmax_tile<C>(s, m, l, alpha, scale_log2);
          wait_pv_and_rescale<C>(o, alpha, p.zero);  // P(j-1)·V(j-1) done: O and P ours again
          pin(pf);
          if (leader) mbar_arrive(v_empty(sv));
          convert_p<C>(s, pf);
        };
        if constexpr (C::FLUSH) {
          // Runs of FL_TILES steps, each followed (while tiles remain) by a flush: after step u, O
          // holds tiles up to u-1 since the last flush. The flush sits between two loops rather
          // than behind a branch inside one: with the branch, ptxas moved softmax work (d=128:
          // 48 of the 64 row-sum FADDs; d=64 causal: the exponentials) below the P·V wait, which
          // serialised it behind P·V (SASS, fifteenth session; 7% at d=128).
#pragma unroll 1
          for (int c0 = 1; c0 < n_wg; c0 += C::FL_TILES) {
            const int c1 = min(c0 + C::FL_TILES, n_wg);
#pragma unroll 1
            for (int u = c0; u < c1; ++u) step(u);
            if (c1 < n_wg) flush_o<C>(o, m, m_fl, c0 == 1, fl());
          }
        } else {
#pragma unroll 1
          for (int u = 1; u < n_wg; ++u) step(u);
        }
        {
          const int i = tix(n_wg - 1), sv = stg(i);
          mbar_wait(v_full(sv), phs(i));
          pin(o);
          pin(pf);
          pp_begin();
          wgmma_fence();
          issue_pv<C>(o, pf, v_desc(sv));
          wgmma_commit();
          pp_end(true);
          wgmma_wait<0>();
          pin(o);
          pin(pf);
          ATTN_HOLD(st_e);  // (e)
          if (leader && !PERS) mbar_arrive(v_empty(sv));  // persistent: after O's store
          if constexpr (C::FLUSH) {
            if (n_wg > C::FL_TILES + 1) unflush_o<C>(o, m, m_fl, fl());  // a flush happened
          }
        }
      }  // n_wg > 0
    } else {
#pragma unroll 1
      for (int u = 0; u < n_wg; ++u) {
        const int i = tix(u);
        const int j = j0 + i;
        const int st = stg(i);
        const uint32_t ph = phs(i);
        mbar_wait(k_full(st), ph);
        wgmma_fence();
        issue_qk<C>(s, q_desc, k_desc(st));
        wgmma_commit();
        wgmma_wait<0>();
        pin(s);
        if (leader) mbar_arrive(k_empty(st));
        if (j >= n_full) apply_mask<C, CAUSAL>(s, row0, j * C::BN, p.S_k, t);
        softmax_tile<C>(s, m, l, alpha, scale_log2);
        if (u == 0) ATTN_HOLD(st_d);  // (d)
        rescale_o<C>(o, alpha);
        convert_p<C>(s, pf);
        mbar_wait(v_full(st), ph);
        pin(o);
        pin(pf);
        wgmma_fence();
        float ts[4];
        issue_pv<C>(o, pf, v_desc(st), &ts, ones_desc);
        wgmma_commit();
        wgmma_wait<0>();
        pin(o);
        pin(pf);
        if constexpr (C::LS) {
          pin(ts);
          l[0] += ts[0];  // (row g: columns 2t, 2t+1 of P·ones both hold its sum)
          l[1] += ts[2];
        }
        if (leader) mbar_arrive(v_empty(st));
        if constexpr (C::FLUSH) {  // O holds tiles 0..u since the last flush
          if ((u + 1) % C::FL_TILES == 0 && u + 1 < n_wg) flush_o<C>(o, m, m_fl, u + 1 == C::FL_TILES, fl());
        }
      }
      if constexpr (C::FLUSH) {
        if (n_wg > C::FL_TILES) unflush_o<C>(o, m, m_fl, fl());
      }
      if (n_wg > 0) ATTN_HOLD(st_e);  // (e)
    }
#if ATTN_STAMPS
    stamp_defer(st_calls);  // the slot arithmetic stays after the main loop
    if (st_on) {
      st_row = stamp_row(st_calls);
      st_row[2] = st_c;
      st_row[3] = st_d;
      st_row[4] = st_e;
    }
#endif
    // Tiles the CTA loads but this warpgroup has no use for: it still releases each stage, once
    // per phase and in order, so the producer's ring keeps turning.
    if (leader) {
      // (Key split: only the tiles this warpgroup owns, kr, kr+KS, ...)
      const int n_own = C::KS > 1 ? (n_tiles > kr ? (n_tiles - 1 - kr) / C::KS + 1 : 0) : n_tiles;
#pragma unroll 1
      for (int u = n_wg; u < n_own; ++u) {
        const int i = tix(u);
        const int st = stg(i);
        const uint32_t ph = phs(i);
        mbar_wait(k_full(st), ph);
        mbar_arrive(k_empty(st));
        mbar_wait(v_full(st), ph);
        mbar_arrive(v_empty(st));
      }
    }
    if (!PERS || k + 1 == n_mine) pdl_launch_dependents();

    float lt[2];
#pragma unroll
    for (int hh = 0; hh < 2; ++hh) {
      if constexpr (C::LT) {
        lt[hh] = o[C::D / 2 + 2 * hh];  // column D + 2t of row hh: the whole row's sum in every lane
      } else if constexpr (C::LS) {
        lt[hh] = l[hh];  // sums of whole rows already
      } else {
        float x = l[hh];
        x += __shfl_xor_sync(0xffffffffu, x, 1);
        x += __shfl_xor_sync(0xffffffffu, x, 2);
        lt[hh] = x;
      }
    }

    if constexpr (C::KS > 1) {
      // ---- Key-split merge: the warpgroups other than rank FOLD leave their partial (O, m, l)
      // in shared memory (each thread its own fragment, [float4 index][thread]) and leave; rank
      // FOLD folds them into its own in a fixed order (deterministic) and runs the normal
      // epilogue below. ----
      // SHORT_FOLD_LAST: the last rank folds instead. Its key tiles are the last of each round to
      // arrive, so it tends to finish last, and the one that finishes last should not have to
      // write its partial and wait at the barrier for another warpgroup to read it.
      // Partial slots: ranks 1..KS-1 use slots 0..KS-2 when rank 0 folds, ranks 0..KS-2 use
      // slots 0..KS-2 when the last one does (the default).
      constexpr int FOLD = SHORT_FOLD_LAST ? C::KS - 1 : 0;
      constexpr int SLOT0 = FOLD == 0 ? 1 : 0;  // the rank that uses slot 0
      const int tl = tid % 128;
      float4* const kp_o = reinterpret_cast<float4*>(smem + C::KP_OFF);
      float4* const kp_ml = reinterpret_cast<float4*>(smem + C::KP_OFF + C::KP_O_BYTES);
      const bool writer = kr != FOLD;
      if (writer) {
#pragma unroll
        for (int i = 0; i < C::D / 8; ++i)
          kp_o[((kr - SLOT0) * (C::D / 8) + i) * 128 + tl] =
              make_float4(o[4 * i], o[4 * i + 1], o[4 * i + 2], o[4 * i + 3]);
        kp_ml[(kr - SLOT0) * 128 + tl] = make_float4(m[0], m[1], lt[0], lt[1]);
      }
      constexpr int KSB = 7;  // 1..3: epilogue barriers, 4..6: ping-pong (off with KS > 1)
      named_bar_sync(KSB, 128 * C::KS);  // orders the partial writes before the folder's reads
      if (writer) return;
#pragma unroll
      for (int q = SLOT0; q < SLOT0 + C::KS - 1; ++q) {
        // Rank 0 always has key 0 (tile 0), visible to every row, so M is finite once rank 0's
        // partial is in (with both sides at -inf, both weights are 0 and nothing is NaN).
        fold_partial<C, false>(o, m, lt, kp_ml[(q - SLOT0) * 128 + tl],
                               [&](int i) { return kp_o[((q - SLOT0) * (C::D / 8) + i) * 128 + tl]; });
      }
    }
    ATTN_STAMP(st_row, 5);  // (f)

    if constexpr (!C::SPLIT) {
      // ---- SK_TAIL's hand-over (sk_hand_over), then the epilogue: O /= l, LSE, O -> shared memory
      // (swizzled) -> TMA store. ----
      bool store_o = true;
      if (PERS && it.cut >= 0 && n_wg > 0)
        store_o = sk_hand_over<C>(p, unsigned(it.cut) * C::CWG + unsigned(rg), o, m, lt,
                                  reinterpret_cast<volatile unsigned*>(smem + C::SK_OFF) + rg, rg, leader);
      normalise_o<C>(p, o, m, lt, int64_t(bh), row0, t, store_o);
      // The last wgmma that read this warpgroup's Q rows has retired and no other warpgroup
      // reads them, so they can take O, in the O tensor map's swizzled layout. Persistent: Q
      // already holds the next item's rows (or is about to), so O goes to the last key tile's K
      // stage instead, warpgroup rg's 64 rows at byte rg * 64 * D * 2, one 8 KB block per
      // 64-column slab; every warpgroup's last Q·Kᵀ (the only reader of that stage) must have
      // retired first (q_empty), and the stage is released once the store has read it.
      const int s_last = PERS ? stg(n_tiles - 1) : 0;
      const int o_base = PERS ? C::K_OFF + s_last * C::KV_BYTES + rg * C::SLABS * 8192 : C::Q_OFF;
      const int o_slab = PERS ? 8192 : C::Q_SLAB;
      const int o_row0 = PERS ? 0 : 64 * rg;
      if (PERS && n_wg > 0) mbar_wait(q_empty, k & 1u);
      if ((!PERS || n_wg > 0) && store_o) stage_o<C, T>(smem, o, o_base, o_slab, o_row0 + 16 * warp_in_wg + g, g, t);
      fence_proxy_async();      // generic-proxy writes -> visible to the TMA store
      warpgroup_bar(1 + rg);
      if (leader && m0 + 64 * rg < p.S_q && store_o) {
#pragma unroll
        for (int sl = 0; sl < C::SLABS; ++sl)
          tma_store_4d(&tm_o, sb + o_base + sl * o_slab + o_row0 * 128, 64 * sl, m0 + 64 * rg, h, b);
        if (PERS && PERS_DEFER) tma_store_commit();
        else tma_store_commit_and_drain();
      }
      if (PERS && PERS_DEFER) {
        if (n_wg > 0) pend = s_last;
      } else if (PERS && leader && n_wg > 0) {
        mbar_arrive(k_empty(s_last));
        mbar_arrive(v_empty(s_last));
      }
      ATTN_STAMP(st_row, 6);  // (g)
    } else {
      // ---- Split-KV epilogue: partial (O, m, l) -> own smem; cluster barrier; CTA `crank`
      // combines rows [crank*BM/csize, ...) from every CTA's smem (DSMEM) and writes them. ----
#pragma unroll
      for (int hh = 0; hh < 2; ++hh) {
        const int r = 64 * cw + 16 * warp_in_wg + g + 8 * hh;  // CTA-local row
        const uint32_t swz = uint32_t(r & 7) << 2;
#pragma unroll
        for (int i = 0; i < C::D / 8; ++i) {
          const uint32_t pair = uint32_t(4 * i + t) ^ swz;
          *reinterpret_cast<float2*>(smem + C::PO_OFF + (r * (C::D / 2) + pair) * 8) =
              make_float2(o[4 * i + 2 * hh], o[4 * i + 2 * hh + 1]);
        }
        if (t == 0) *reinterpret_cast<float2*>(smem + C::ML_OFF + r * 8) = make_float2(m[hh], lt[hh]);
      }
      cluster_sync_all();  // release/acquire: every CTA's partials are visible cluster-wide
      const int rows_per = C::BM / int(csize);
      constexpr int CH = C::D / 4;  // float4 chunks per row
      const int ctid = tid - C::CONS0;
      T* const obase = reinterpret_cast<T*>(p.o) + p.o_sb * b + p.o_sh * h;
      for (int it = ctid; it < rows_per * CH; it += C::CWG * 128) {
        const int rr = it / CH, c4 = it % CH;
        const int r = int(crank) * rows_per + rr;
        const int row = m0 + r;
        if (row >= p.S_q) continue;
        const uint32_t ml_addr = sb + C::ML_OFF + r * 8;
        const uint32_t po_addr = sb + C::PO_OFF + (r * (C::D / 2) + ((2 * c4) ^ ((r & 7) << 2))) * 8;
        float M = -INFINITY;
        for (uint32_t q = 0; q < csize; ++q) M = fmaxf(M, ld_cluster_f2(map_rank(ml_addr, q)).x);
        float L = 0.f;
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        for (uint32_t q = 0; q < csize; ++q) {
          const float2 ml = ld_cluster_f2(map_rank(ml_addr, q));
          const float w = ml.x == -INFINITY ? 0.f : fast_exp2f(ml.x - M);
          L += w * ml.y;
          const float4 v = ld_cluster_f4(map_rank(po_addr, q));
          acc.x += w * v.x;
          acc.y += w * v.y;
          acc.z += w * v.z;
          acc.w += w * v.w;
        }
        const float inv = 1.f / L;
        uint2 out;
        out.x = pack2<T>(acc.x * inv, acc.y * inv);
        out.y = pack2<T>(acc.z * inv, acc.w * inv);
        *reinterpret_cast<uint2*>(obase + p.o_ss * row + 4 * c4) = out;
        if (c4 == 0 && p.lse != nullptr) p.lse[int64_t(bh) * p.S_q + row] = (M + log2f(L)) * kLn2;
      }
      cluster_sync_all();  // no CTA leaves while a peer may still read its shared memory
    }
    ring += uint32_t(n_tiles);
    }  // this CTA's items
    release_pend();  // the last item's store has read its stage before the CTA's memory goes
#if ATTN_STAMPS
    ATTN_STAMP(st_row, 7);  // (h)
    // No fence: the next call reads the counter only after this grid has completed.
    if (tid == st_tid && blockIdx.x == 0) atomicAdd(&g_stamp_calls, 1u);
#endif
    }  // not CHAIN
  }
}

// ---------------------------------------------------------------------------------------------
// Host side.
// ---------------------------------------------------------------------------------------------
using EncodeFn = PFN_cuTensorMapEncodeTiled_v12000;

// The driver's cuTensorMapEncodeTiled through the runtime's versioned entry point (no -lcuda).
// Only a successful lookup is remembered; the encode itself runs per call.
EncodeFn encode_fn() {
  static EncodeFn cached = nullptr;  // a benign race: every writer stores the same pointer
  if (cached != nullptr) return cached;
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t e =
      cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
  if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || fn == nullptr) return nullptr;
  cached = reinterpret_cast<EncodeFn>(fn);
  return cached;
}

// A 4-D map {D, S, H, B} (innermost first) over one [B, H, S, D] tensor with element strides
// ss, sh, sb; box {64, rows, 1, 1} with the 128-byte swizzle. A dimension of extent 1 is only
// ever read at coordinate 0, so its stride is replaced by a canonical one (any value of the
// caller's is legal for torch there, not all are for TMA).
bool encode_map(CUtensorMap* map, EncodeFn enc, CUtensorMapDataType dt, const void* ptr, int D,
                int S, int H, int B, int64_t ss, int64_t sh, int64_t sb, int box_rows) {
  constexpr uint64_t kLimit = uint64_t(1) << 40;
  uint64_t st[3] = {uint64_t(ss) * 2, uint64_t(sh) * 2, uint64_t(sb) * 2};
  const uint64_t ext[3] = {uint64_t(S), uint64_t(H), uint64_t(B)};
  uint64_t canonical = uint64_t(D) * 2;
  for (int i = 0; i < 3; ++i) {
    if (ext[i] == 1) st[i] = canonical < kLimit ? canonical : 16;
    canonical = st[i] * ext[i];
  }
  const cuuint64_t dims[4] = {cuuint64_t(D), cuuint64_t(S), cuuint64_t(H), cuuint64_t(B)};
  const cuuint64_t strides[3] = {st[0], st[1], st[2]};
  const cuuint32_t box[4] = {64, cuuint32_t(box_rows), 1, 1};
  const cuuint32_t elem[4] = {1, 1, 1, 1};
  const CUresult r = enc(map, dt, 4, const_cast<void*>(ptr), dims, strides, box, elem,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS;
}

// SMs of the current device (cached per device).
int num_sms() {
  static int cache[64] = {0};
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return 132;
  if (dev >= 0 && dev < 64 && cache[dev] > 0) return cache[dev];
  int n = 0;
  if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || n <= 0) n = 132;
  if (dev >= 0 && dev < 64) cache[dev] = n;
  return n;
}

// SK_TAIL's workspaces come from a pool of this library's own (one per device) that keeps its
// memory between calls. The device's default pool gives memory back at every synchronisation,
// and the next call's allocation then maps it again on the host: in the ninth session's dev A/B,
// which synchronises after every call, that cost (4,16,4096,128) 10% of its event time.
cudaError_t sk_pool(cudaMemPool_t* out) {
  static std::mutex mu;
  static cudaMemPool_t pools[64] = {};
  int dev = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e != cudaSuccess) return e;
  if (dev < 0 || dev >= 64) return cudaErrorInvalidDevice;
  const std::lock_guard<std::mutex> lock(mu);
  if (pools[dev] == nullptr) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    // Creating a pool is no stream work: let it happen while the caller's stream is captured.
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    cudaThreadExchangeStreamCaptureMode(&mode);
    cudaMemPool_t pool = nullptr;
    e = cudaMemPoolCreate(&pool, &props);
    if (e == cudaSuccess) {
      uint64_t keep = UINT64_MAX;
      e = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
      if (e != cudaSuccess) cudaMemPoolDestroy(pool);
    }
    cudaThreadExchangeStreamCaptureMode(&mode);
    if (e != cudaSuccess) return e;
    pools[dev] = pool;
  }
  *out = pools[dev];
  return cudaSuccess;
}

template <class C, bool CAUSAL>
cudaError_t launch(const AttnParams& p, cudaStream_t stream, EncodeFn enc, int cluster) {
  const CUtensorMapDataType dt = C::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  CUtensorMap tq, tk, tv, to;  // 64-byte aligned by type
  if (!encode_map(&tq, enc, dt, p.q, C::D, p.S_q, p.H, p.B, p.q_stride_s, p.q_stride_h, p.q_stride_b, C::BM) ||
      !encode_map(&tk, enc, dt, p.k, C::D, p.S_k, p.H, p.B, p.k_stride_s, p.k_stride_h, p.k_stride_b, C::BN) ||
      !encode_map(&tv, enc, dt, p.v, C::D, p.S_k, p.H, p.B, p.v_stride_s, p.v_stride_h, p.v_stride_b, C::BN) ||
      !encode_map(&to, enc, dt, p.o, C::D, p.S_q, p.H, p.B, p.o_stride_s, p.o_stride_h, p.o_stride_b, 64))
    return cudaErrorInvalidValue;

  auto kernel = attn_fwd_wgmma_kernel<C, CAUSAL>;
  constexpr int smem = C::SMEM_BYTES;
  const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  if (e != cudaSuccess) return e;
  // One flat grid dimension (limit 2^31 - 1): no B, H or S_q runs into gridDim.y/z's 65535.
  const int64_t m_tiles = attn::ceil_div(p.S_q, C::BM);
  const int64_t items = int64_t(p.B) * p.H * m_tiles;
  if (items * cluster > INT32_MAX) return cudaErrorInvalidValue;
  // Persistent (PERSIST, non-causal main kernel): one CTA per SM, each looping over items.
  const int64_t blocks = C::PERSISTENT && !CAUSAL && items > num_sms() ? num_sms() : items * cluster;
  KParams kp;
  kp.lse = p.lse;
  kp.o = p.o;
  kp.o_sb = p.o_stride_b;
  kp.o_sh = p.o_stride_h;
  kp.o_ss = p.o_stride_s;
  kp.S_q = p.S_q;
  kp.S_k = p.S_k;
  kp.H = p.H;
  kp.bh_count = unsigned(int64_t(p.B) * p.H);
  kp.num_m_tiles = unsigned(m_tiles);
  kp.scale_log2 = p.softmax_scale * attn::kLog2e;
  kp.zero = 0u;
  kp.next_stride = NEXT_PREFETCH != 0 ? unsigned(num_sms() * C::MINB) : 0u;
  const int64_t tail_items = int64_t(CAUSAL_TAIL) * num_sms() * C::MINB;
  kp.tail_heads = unsigned(CAUSAL ? std::min<int64_t>(int64_t(p.B) * p.H, (tail_items + m_tiles - 1) / m_tiles) : 0);
  // SK_TAIL: the last blocks + rem items split into `blocks` runs of key tiles (NOTES.md, ninth
  // session). A run is at least one item long, since (blocks + rem) * nt >= blocks * nt; the
  // kernel's run arithmetic is 32-bit.
  kp.sk_full = 0u;
  kp.sk_tiles = 0u;
  kp.sk_part = nullptr;
  kp.sk_flag = nullptr;
  kp.fl_ws = nullptr;
  size_t sk_part_bytes = 0, sk_bytes = 0;
  // FL_GLOBAL: 64 KB per CTA (d=128), the size of O in fp32 twice over; taken from the same
  // stream-ordered pool as SK_TAIL's workspace (never both in one launch: one is persistent only,
  // the other one CTA per item). No initialisation: a slot is read only after its first flush.
  const size_t fl_bytes = C::FL_GLOBAL ? size_t(items) * C::CWG * 128 * C::FL_F4 * sizeof(float4) : 0;
  if constexpr (C::PERSISTENT && !CAUSAL && SK_TAIL != 0) {
    const int64_t nt = attn::ceil_div(p.S_k, C::BN), rem = items % blocks;
    if (items > blocks && rem != 0 && nt >= SK_TAIL_MIN_TILES && (blocks + rem) * nt * blocks < (int64_t(1) << 32)) {
      kp.sk_full = unsigned(items / blocks - 1);
      kp.sk_tiles = unsigned((blocks + rem) * nt);
      sk_part_bytes = size_t(blocks - 1) * C::CWG * (C::D / 8 + 1) * 128 * sizeof(float4);
      sk_bytes = sk_part_bytes + size_t(blocks - 1) * C::CWG * 2 * sizeof(unsigned);
    }
  }

  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(unsigned(blocks));
  cfg.blockDim = dim3(C::THREADS);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cudaLaunchAttribute attr[2];
  int na = 0;
#if ATTN_PDL
  // The prologue (barrier init, tensor-map prefetch, setmaxnreg) may overlap the previous
  // kernel on the stream; the kernel's griddepcontrol.wait guards every global access.
  attr[na].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[na].val.programmaticStreamSerializationAllowed = 1;
  ++na;
#endif
  if (C::SPLIT) {
    attr[na].id = cudaLaunchAttributeClusterDimension;
    attr[na].val.clusterDim.x = unsigned(cluster);
    attr[na].val.clusterDim.y = 1;
    attr[na].val.clusterDim.z = 1;
    ++na;
  }
  cfg.attrs = attr;
  cfg.numAttrs = unsigned(na);
  if (sk_bytes == 0 && fl_bytes == 0) return cudaLaunchKernelEx(&cfg, kernel, kp, tq, tk, tv, to);
  // The workspace is this call's own, in stream order (alloc, zeroed tickets, kernel, free; under
  // graph capture, nodes of the graph): calls on other streams never share it.
  cudaMemPool_t pool = nullptr;
  cudaError_t r = sk_pool(&pool);
  if (r != cudaSuccess) return r;
  void* ws = nullptr;
  r = cudaMallocFromPoolAsync(&ws, sk_bytes + fl_bytes, pool, stream);
  if (r != cudaSuccess) return r;
  if (sk_bytes != 0) {
    r = cudaMemsetAsync(static_cast<char*>(ws) + sk_part_bytes, 0, sk_bytes - sk_part_bytes, stream);
    kp.sk_part = static_cast<float4*>(ws);
    kp.sk_flag = reinterpret_cast<unsigned*>(static_cast<char*>(ws) + sk_part_bytes);
  } else {
    kp.fl_ws = static_cast<float4*>(ws);
  }
  if (r == cudaSuccess) r = cudaLaunchKernelEx(&cfg, kernel, kp, tq, tk, tv, to);
  const cudaError_t f = cudaFreeAsync(ws, stream);
  return r != cudaSuccess ? r : f;
}

#if SPLIT_KV

// Cluster size for the split-KV kernel: the largest power of two <= SPLIT_MAX that keeps the
// grid within one wave and gives every split at least one key tile of the longest row; 1 = do
// not split (the grid fills the GPU by itself).
template <class CS>
int choose_split(const AttnParams& p) {
#if 1
  const int64_t m_tiles = attn::ceil_div(p.S_q, CS::BM);
  const int64_t ctas = int64_t(p.B) * p.H * m_tiles;
  const int64_t keys = p.causal ? (p.S_k < m_tiles * CS::BM ? p.S_k : m_tiles * CS::BM) : p.S_k;
  const int64_t nt = (keys + CS::BN - 1) / CS::BN;
  const int64_t sms = num_sms();
  int cs = 1;
  while (cs * 2 <= SPLIT_MAX && cs * 2 <= nt && ctas * cs * 2 <= sms) cs *= 2;
  // Each piece is one accumulator chain: no longer than FLUSH_KEYS keys, or no split (the rows
  // then take the long-row variant, which flushes).
  if ((nt + cs - 1) / cs * CS::BN > FLUSH_KEYS) return 1;
  return cs;
#else
  (void)p;
  return 1;
#endif
}
#endif  // SPLIT_KV

template <typename T, int D>
cudaError_t dispatch_causal(const AttnParams& p, cudaStream_t stream, EncodeFn enc) {
#if SPLIT_KV
  using CS = typename SplitConfigFor<T, D>::type;
  const int cs = choose_split<CS>(p);
  if (cs > 1) return p.causal ? launch<CS, true>(p, stream, enc, cs) : launch<CS, false>(p, stream, enc, cs);
#endif
#if SHORT_KV
  if constexpr (D == 64) {
#if SHORT_KSPLIT > 1
    // A shape rule (no device query): 64-row CTAs that fit in one wave split their keys over
    // SHORT_KSPLIT consumer warpgroups; more CTAs than that already fill the SMs (4 per SM).
    if (p.S_k <= SHORT_MAX_KEYS && int64_t(p.B) * p.H * attn::ceil_div(p.S_q, 64) <= SHORT_KSPLIT_MAX_CTAS) {
      return p.causal ? launch<typename ShortSplitConfigFor<T, true>::type, true>(p, stream, enc, 1)
                      : launch<typename ShortSplitConfigFor<T, false>::type, false>(p, stream, enc, 1);
    }
#endif
    // The short-row kernel also takes causal rows up to SHORT_CAUSAL_MAX_KEYS: its 64-row CTAs
    // cut the diagonal finer and leave a shorter tail of long CTAs.
    if (p.S_k <= SHORT_MAX_KEYS || (p.causal && p.S_k <= SHORT_CAUSAL_MAX_KEYS)) {
      using CSH = typename ShortConfigFor<T>::type;
      return p.causal ? launch<CSH, true>(p, stream, enc, 1) : launch<CSH, false>(p, stream, enc, 1);
    }
  }
#endif
  // Rows longer than FLUSH_KEYS: the variant that keeps every accumulator chain that short.
  if (p.S_k > FLUSH_KEYS) {
    using CL = typename ConfigFor<T, D>::long_rows;
    return p.causal ? launch<CL, true>(p, stream, enc, 1) : launch<CL, false>(p, stream, enc, 1);
  }
  using C = typename ConfigFor<T, D>::type;
  if constexpr (C::PERSISTENT) {
    if (!p.causal && p.S_k > PERSIST_MAX_KEYS)
      return launch<typename ConfigFor<T, D>::one_per_item, false>(p, stream, enc, 1);
  }
  return p.causal ? launch<C, true>(p, stream, enc, 1) : launch<C, false>(p, stream, enc, 1);
}

bool aligned16(const void* ptr) { return (reinterpret_cast<uintptr_t>(ptr) & 15u) == 0; }
// TMA: every stride a non-negative multiple of 16 bytes (8 16-bit elements).
bool strides_ok(int64_t sb, int64_t sh, int64_t ss) {
  return sb >= 0 && sh >= 0 && ss >= 0 && sb % 8 == 0 && sh % 8 == 0 && ss % 8 == 0;
}

}  // namespace

ATTN_DEFINE_ABI_VERSION

namespace {
constexpr int max_bytes(int a, int b) { return a > b ? a : b; }
}  // namespace
#if SPLIT_KV
#define SMEM_SPLIT(d) SplitConfigFor<__half, d>::type::SMEM_BYTES
#else
#define SMEM_SPLIT(d) 0
#endif
#if SHORT_KV && SHORT_KSPLIT > 1
#define SMEM_KSPLIT \
  max_bytes(ShortSplitConfigFor<__half, false>::type::SMEM_BYTES, ShortSplitConfigFor<__half, true>::type::SMEM_BYTES)
#else
#define SMEM_KSPLIT 0
#endif

ATTN_EXPORT int attn_smem_bytes(int head_dim, int dtype) {
  if (dtype != ATTN_FP16 && dtype != ATTN_BF16) return 0;
  switch (head_dim) {  // the layout does not depend on which 16-bit type it holds
    // The larger of the main kernel's and the split-KV kernel's request.
    case 64: return max_bytes(max_bytes(max_bytes(max_bytes(ConfigFor<__half, 64>::type::SMEM_BYTES, SMEM_SPLIT(64)),
                                                  ShortConfigFor<__half>::type::SMEM_BYTES), SMEM_KSPLIT),
                              ConfigFor<__half, 64>::long_rows::SMEM_BYTES);
    case 128: return max_bytes(max_bytes(ConfigFor<__half, 128>::type::SMEM_BYTES, SMEM_SPLIT(128)),
                               ConfigFor<__half, 128>::long_rows::SMEM_BYTES);
    default: return 0;
  }
}

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!attn::params_are_valid(p)) return cudaErrorInvalidValue;
  if (p->D != 64 && p->D != 128) return cudaErrorInvalidValue;
  if (!aligned16(p->q) || !aligned16(p->k) || !aligned16(p->v) || !aligned16(p->o))
    return cudaErrorInvalidValue;
  if (!strides_ok(p->q_stride_b, p->q_stride_h, p->q_stride_s) ||
      !strides_ok(p->k_stride_b, p->k_stride_h, p->k_stride_s) ||
      !strides_ok(p->v_stride_b, p->v_stride_h, p->v_stride_s) ||
      !strides_ok(p->o_stride_b, p->o_stride_h, p->o_stride_s))
    return cudaErrorInvalidValue;
  // The tensor maps are encoded through the driver, which works on the calling thread's current
  // context; a host thread that has made no runtime call yet has none, and the encode fails.
  // cudaSetDevice binds the device's primary context to this thread (CUDA 12 and later).
  int device = 0;
  cudaError_t bound = cudaGetDevice(&device);
  if (bound == cudaSuccess) bound = cudaSetDevice(device);
  if (bound != cudaSuccess) return bound;
  const EncodeFn enc = encode_fn();
  if (enc == nullptr) return cudaErrorInvalidValue;

  cudaError_t e;
  if (p->dtype == ATTN_FP16)
    e = p->D == 64 ? dispatch_causal<__half, 64>(*p, stream, enc)
                   : dispatch_causal<__half, 128>(*p, stream, enc);
  else
    e = p->D == 64 ? dispatch_causal<__nv_bfloat16, 64>(*p, stream, enc)
                   : dispatch_causal<__nv_bfloat16, 128>(*p, stream, enc);
  return int(e);
}

#if ATTN_STAMPS
// Diagnostic exports (dev/seed_chain.py): the stamp ring as laid out on the device, its call
// counter, and a reset of both. Synchronous: the caller reads between calls, never during one.
ATTN_EXPORT int attn_stamps_read(void* host_dst, size_t bytes) {
  if (host_dst == nullptr) return int(cudaErrorInvalidValue);
  if (bytes > sizeof(g_attn_stamps)) bytes = sizeof(g_attn_stamps);
  return int(cudaMemcpyFromSymbol(host_dst, g_attn_stamps, bytes));
}
ATTN_EXPORT long long attn_stamps_calls() {
  unsigned n = 0;
  if (cudaMemcpyFromSymbol(&n, g_stamp_calls, sizeof(n)) != cudaSuccess) return -1;
  return (long long)n;
}
ATTN_EXPORT int attn_stamps_reset() {
  void* ring = nullptr;
  cudaError_t e = cudaGetSymbolAddress(&ring, g_attn_stamps);
  if (e == cudaSuccess) e = cudaMemset(ring, 0, sizeof(g_attn_stamps));
  const unsigned zero = 0;
  if (e == cudaSuccess) e = cudaMemcpyToSymbol(g_stamp_calls, &zero, sizeof(zero));
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return int(e);
}
#endif
