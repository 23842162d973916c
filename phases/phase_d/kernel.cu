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
//     them (setmaxnreg.inc).
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
// Work decomposition: one CTA owns BLOCK_M = 64 * CWG query rows of one (batch, head). Flat 1-D
// grid; non-causal CTAs run query tile fastest (a head's K/V stay in L2 while its query tiles
// run), causal ones heaviest-first.
//
// Compile-time tunables (-DNAME=value; NAME_D64 / NAME_D128 per head dim, NAME sets both):
//   CONSUMER_WG_D64/_D128   consumer warpgroups = BLOCK_M / 64   (defaults 3 / 2: BLOCK_M 192 / 128)
//   BLOCK_N_D64/_D128       keys per K/V tile, a multiple of 16 in [64, 192] (defaults 128 / 128)
//   STAGES_D64/_D128        K/V ring depth, 2..4                 (defaults 3 / 3)
//   OVERLAP                 1: softmax(j) overlaps P(j-1)·V(j-1); 0: strictly in turn (default 1)
//   ATTN_SPIN_TRAP          debug: 1 turns a barrier wait of ~2^28 polls into a trap (default 0)
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
// Not a tunable: tests/controls/serialized_wgmma builds this file with it set to 1, which adds
// one FADD on an S accumulator register between the Q·Kᵀ wgmma issue and its wait, so that ptxas
// must serialise the wgmma pipeline (and says so) while the result stays exact (x + 0).
#ifndef ATTN_CONTROL_TOUCH_ACCUMULATOR
#define ATTN_CONTROL_TOUCH_ACCUMULATOR 0
#endif
// Negative control tests/controls/warp_vote_wait: the P·V wait behind a plain warp vote on alpha
// (this kernel's form before the seventh session), which lets warps of one warpgroup reach
// wgmma.wait_group (.sync.aligned) at different instructions. 0 in every real build.
#ifndef ATTN_CONTROL_WARP_VOTE_WAIT
#define ATTN_CONTROL_WARP_VOTE_WAIT 0
#endif

namespace {

constexpr float kLn2 = 0.6931471805599453f;

// ---------------------------------------------------------------------------------------------
// Configuration.
// ---------------------------------------------------------------------------------------------
template <typename T_, int D_, int CWG_, int BN_, int STAGES_>
struct Config {
  using T = T_;
  static constexpr bool BF16 = std::is_same_v<T, __nv_bfloat16>;
  static constexpr int D = D_;
  static constexpr int CWG = CWG_;            // consumer warpgroups, 64 query rows each
  static constexpr int BM = 64 * CWG;         // query rows per CTA
  static constexpr int BN = BN_;              // keys per K/V tile
  static constexpr int NSTAGE = STAGES_;
  static constexpr int THREADS = 128 * (CWG + 1);  // + the producer warpgroup

  // Register split (setmaxnreg): the producer warpgroup keeps 24 per thread, the consumers
  // share the rest of the 64K-register file, rounded down to a multiple of 8, at most 240.
  static constexpr int PRODUCER_REGS = 24;
  static constexpr int CONSUMER_REGS_RAW = ((65536 / 128 - PRODUCER_REGS) / CWG) / 8 * 8;
  static constexpr int CONSUMER_REGS = CONSUMER_REGS_RAW > 240 ? 240 : CONSUMER_REGS_RAW;
  // What a consumer thread keeps live at its peak: the S (BN/2 fp32) and O (D/2 fp32) fragments,
  // with OVERLAP also the P of the previous tile (BN/4 packed pairs) that its P·V is still
  // reading, plus 32 for softmax state, addresses and loop bookkeeping. Calibrated with ptxas -v
  // over every BLOCK_N x CONSUMER_WG x OVERLAP combination (NOTES.md): this admits exactly the
  // spill-free ones.
  static constexpr int REGS_NEEDED = BN / 2 + D / 2 + (OVERLAP ? BN / 4 : 0) + 32;

  static constexpr int SLABS = D / 64;        // 64-column (128-byte) slabs per tile row
  static constexpr int Q_SLAB = BM * 128;     // bytes of one slab of the Q tile
  static constexpr int KV_SLAB = BN * 128;
  static constexpr int Q_BYTES = SLABS * Q_SLAB;
  static constexpr int KV_BYTES = SLABS * KV_SLAB;  // one K (or V) stage
  static constexpr int Q_OFF = 0;             // byte offsets from the 1024-aligned base
  static constexpr int K_OFF = Q_OFF + Q_BYTES;
  static constexpr int V_OFF = K_OFF + NSTAGE * KV_BYTES;
  static constexpr int BAR_OFF = V_OFF + NSTAGE * KV_BYTES;
  static constexpr int NUM_BARS = 1 + 4 * NSTAGE;   // q_full, k_full/empty, v_full/empty
  static constexpr int SMEM_BYTES = BAR_OFF + 8 * NUM_BARS + 1024;  // + alignment slack

  static_assert(D == 64 || D == 128, "head dim must be 64 or 128");
  static_assert(CWG >= 1 && CWG <= 3, "CONSUMER_WG must be 1, 2 or 3 (BLOCK_M = 64 * CONSUMER_WG <= 192)");
  static_assert(BN % 16 == 0 && BN >= 64 && BN <= 192,
                "BLOCK_N must be a multiple of 16 in [64, 192] (k16 steps of P.V; wgmma N and TMA box limits)");
  static_assert(NSTAGE >= 2 && NSTAGE <= 4, "STAGES must be 2, 3 or 4");
  static_assert(SMEM_BYTES <= 227 * 1024,
                "tile configuration exceeds 227 KB of shared memory: lower BLOCK_N, STAGES or CONSUMER_WG");
  static_assert(REGS_NEEDED <= CONSUMER_REGS,
                "too few registers per consumer thread for the S, O (and with OVERLAP, P) fragments "
                "(BLOCK_N/2 + D/2 [+ BLOCK_N/4] + 32 > setmaxnreg budget): lower BLOCK_N or CONSUMER_WG, or OVERLAP=0");
};

template <typename T, int D> struct ConfigFor;
template <typename T> struct ConfigFor<T, 64> {
  using type = Config<T, 64, CONSUMER_WG_D64, BLOCK_N_D64, STAGES_D64>;
};
template <typename T> struct ConfigFor<T, 128> {
  using type = Config<T, 128, CONSUMER_WG_D128, BLOCK_N_D128, STAGES_D128>;
};

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
// Blocks until the phase with the given parity has completed. A freshly initialised barrier
// is in phase 0, so waiting for parity 1 returns at once: that is how the producer's first
// pass over the (initially empty) ring goes through without a consumer release.
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
#if ATTN_SPIN_TRAP
  uint32_t polls = 0;
#endif
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
#if ATTN_SPIN_TRAP
    if (++polls == (1u << 28)) __trap();
#endif
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
__device__ __forceinline__ void tma_store_commit_and_drain() {
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");  // smem may be released
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

// ---- GENERATED by dev/gen_wgmma.py: one inline-asm statement per (N, dtype). ----------------
// (In a named namespace: unused specialisations of an anonymous one draw 'never referenced'.)
namespace attn_phase_d {
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
}  // namespace attn_phase_d
// ---- end of GENERATED ------------------------------------------------------------------------

namespace {
using attn_phase_d::Wgmma;

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
template <class C>
__device__ __forceinline__ void issue_pv(float (&o)[C::D / 2], const uint32_t (&pf)[C::BN / 4],
                                         uint64_t v_desc) {
#pragma unroll
  for (int kk = 0; kk < C::BN / 16; ++kk)
    Wgmma<C::D, C::BF16>::rs(o, pf[4 * kk], pf[4 * kk + 1], pf[4 * kk + 2], pf[4 * kk + 3],
                             v_desc + uint32_t((kk * 2048) >> 4), 1);
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

// Online softmax on one tile, in place: S becomes exp2(S*c - m_new) (fp32), m and the per-lane
// partial sums l are updated, and alpha = exp2(m_old - m_new) is returned for the O rescale.
// A row's BN scores sit in the 4 lanes of a quad, so the max takes two xor-shuffles; the sum
// stays per lane (all four lanes apply the same alphas) and is reduced once, in the epilogue.
template <class C>
__device__ __forceinline__ void softmax_tile(float (&s)[C::BN / 2], float (&m)[2], float (&l)[2],
                                             float (&alpha)[2], float scale_log2) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float mx = -INFINITY;
#pragma unroll
    for (int i = 0; i < C::BN / 8; ++i) mx = fmaxf(mx, fmaxf(s[4 * i + 2 * h], s[4 * i + 2 * h + 1]));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
    const float m_new = fmaxf(m[h], mx * scale_log2);  // scale > 0: max commutes with it
    // Every row sees key 0 in the first tile, so m_new is finite from then on; the guard keeps
    // (-inf) - (-inf) = NaN out should a row ever have no visible key yet.
    const float m_use = m_new == -INFINITY ? 0.f : m_new;
    alpha[h] = fast_exp2f(m[h] - m_use);
    m[h] = m_new;
    float sum0 = 0.f, sum1 = 0.f;  // two chains: half the FADD latency on the critical path
#pragma unroll
    for (int i = 0; i < C::BN / 8; ++i) {
      const float p0 = fast_exp2f(fmaf(s[4 * i + 2 * h], scale_log2, -m_use));
      const float p1 = fast_exp2f(fmaf(s[4 * i + 2 * h + 1], scale_log2, -m_use));
      s[4 * i + 2 * h] = p0;
      s[4 * i + 2 * h + 1] = p1;
      sum0 += p0;
      sum1 += p1;
    }
    l[h] = l[h] * alpha[h] + (sum0 + sum1);
  }
}

// O *= alpha per row, skipped (exactly) when no row of the warp moved its max.
template <class C>
__device__ __forceinline__ void rescale_o(float (&o)[C::D / 2], const float (&alpha)[2]) {
  if (__any_sync(0xffffffffu, alpha[0] != 1.f || alpha[1] != 1.f)) {
#pragma unroll
    for (int i = 0; i < C::D / 8; ++i) {
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
// on the softmax's own result (alpha), which it cannot be hoisted across. The second wait is free
// when the first ran. wgmma.wait_group is .sync.aligned, so the whole warpgroup must reach the
// same wait: the branch reads alpha through a mask that is 0 at run time (KParams::zero, which
// the compiler cannot see), so every thread takes it; the warp vote around that test only tells
// ptxas the branch is warp-uniform, so it puts no WARPSYNC before the wait. (It was a vote on
// alpha itself until compute-sanitizer synccheck found warps of one warpgroup at different
// waits; a vote over the warpgroup, bar.red, and the test without the warp vote were slower:
// phase_e's NOTES.md, seventh session.) Inside, a warp skips the FMULs when none of its rows
// moved; no .aligned instruction sits in that branch.
template <class C>
__device__ __forceinline__ void wait_pv_and_rescale(float (&o)[C::D / 2], const float (&alpha)[2],
                                                    uint32_t zero) {
#if ATTN_CONTROL_WARP_VOTE_WAIT
  if (__any_sync(0xffffffffu, (alpha[0] != 1.f || alpha[1] != 1.f) && zero == 0u)) {  // negative control only
#else
  if (__any_sync(0xffffffffu, (__float_as_uint(alpha[0]) & zero) == 0u)) {
#endif
    wgmma_wait<0>();
    pin(o);
    if (__any_sync(0xffffffffu, alpha[0] != 1.f || alpha[1] != 1.f)) {
#pragma unroll
      for (int i = 0; i < C::D / 8; ++i) {
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

template <class C>
__device__ __forceinline__ void convert_p(const float (&s)[C::BN / 2], uint32_t (&pf)[C::BN / 4]) {
#pragma unroll
  for (int j = 0; j < C::BN / 4; ++j) pf[j] = pack2<typename C::T>(s[2 * j], s[2 * j + 1]);
}

// ---------------------------------------------------------------------------------------------
// The kernel.
// ---------------------------------------------------------------------------------------------
struct KParams {
  float* lse;
  int S_q, S_k, H;
  unsigned bh_count, num_m_tiles;
  float scale_log2;
  uint32_t zero;  // always 0: wait_pv_and_rescale's guard
};

template <class C, bool CAUSAL>
__global__ void __launch_bounds__(C::THREADS, 1)
attn_fwd_wgmma_kernel(const KParams p, const __grid_constant__ CUtensorMap tm_q,
                      const __grid_constant__ CUtensorMap tm_k,
                      const __grid_constant__ CUtensorMap tm_v,
                      const __grid_constant__ CUtensorMap tm_o) {
  using T = typename C::T;
  constexpr int ST = C::NSTAGE;
  extern __shared__ unsigned char smem_raw[];
  // Swizzled TMA tiles and wgmma operands want 1024-byte alignment; dynamic shared memory only
  // promises 16, so round up (SMEM_BYTES includes the slack).
  const uint32_t raw = smem_u32(smem_raw);
  const uint32_t sb = (raw + 1023u) & ~1023u;
  unsigned char* const smem = smem_raw + (sb - raw);

  const int tid = threadIdx.x;
  const int wg = __shfl_sync(0xffffffffu, tid / 128, 0);  // warp-uniform role

  // CTA -> (batch*head, query tile). Causal: heads fastest, query tiles last to first, so the
  // longest CTAs start first. Non-causal: query tiles fastest, so the resident CTAs share a few
  // heads' K/V in L2. The host guarantees the grid fits in int32.
  int bh, m_tile;
  if (CAUSAL) {
    bh = int(blockIdx.x % p.bh_count);
    m_tile = int(p.num_m_tiles - 1 - blockIdx.x / p.bh_count);
  } else {
    m_tile = int(blockIdx.x % p.num_m_tiles);
    bh = int(blockIdx.x / p.num_m_tiles);
  }
  const int b = bh / p.H, h = bh % p.H;
  const int m0 = m_tile * C::BM;
  // Key tiles: causal rows of this CTA are < m0 + BM, so later keys are never loaded.
  const int n_end = CAUSAL ? min(p.S_k, m0 + C::BM) : p.S_k;
  const int n_tiles = attn::ceil_div(n_end, C::BN);

  const uint32_t bar = sb + C::BAR_OFF;
  const uint32_t q_full = bar;
  auto k_full = [&](int s) { return bar + 8u * uint32_t(1 + s); };
  auto k_empty = [&](int s) { return bar + 8u * uint32_t(1 + ST + s); };
  auto v_full = [&](int s) { return bar + 8u * uint32_t(1 + 2 * ST + s); };
  auto v_empty = [&](int s) { return bar + 8u * uint32_t(1 + 3 * ST + s); };

  if (tid == 0) {
    mbar_init(q_full, 1);
    for (int s = 0; s < ST; ++s) {
      mbar_init(k_full(s), 1);        // the producer's arrive.expect_tx (+ the TMA bytes)
      mbar_init(v_full(s), 1);
      mbar_init(k_empty(s), C::CWG);  // one release per consumer warpgroup
      mbar_init(v_empty(s), C::CWG);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();  // the last CTA-wide barrier: the producer warpgroup leaves early

  if (wg == 0) {
    // ---- Producer warpgroup: one thread issues every TMA load. ------------------------------
    setmaxnreg_dec<C::PRODUCER_REGS>();
    if (tid == 0) {
      prefetch_tmap(&tm_q);
      prefetch_tmap(&tm_k);
      prefetch_tmap(&tm_v);
      prefetch_tmap(&tm_o);
      mbar_arrive_expect_tx(q_full, C::Q_BYTES);
#pragma unroll
      for (int sl = 0; sl < C::SLABS; ++sl)
        tma_load_4d(sb + C::Q_OFF + sl * C::Q_SLAB, &tm_q, q_full, 64 * sl, m0, h, b);
#pragma unroll 1
      for (int j = 0; j < n_tiles; ++j) {
        const int s = j % ST;
        const uint32_t ph = uint32_t(j / ST) & 1u;
        // Box bytes count in full even where the box hangs past S_k (TMA zero-fills them).
        mbar_wait(k_empty(s), ph ^ 1u);
        mbar_arrive_expect_tx(k_full(s), C::KV_BYTES);
#pragma unroll
        for (int sl = 0; sl < C::SLABS; ++sl)
          tma_load_4d(sb + C::K_OFF + s * C::KV_BYTES + sl * C::KV_SLAB, &tm_k, k_full(s), 64 * sl,
                      j * C::BN, h, b);
        mbar_wait(v_empty(s), ph ^ 1u);
        mbar_arrive_expect_tx(v_full(s), C::KV_BYTES);
#pragma unroll
        for (int sl = 0; sl < C::SLABS; ++sl)
          tma_load_4d(sb + C::V_OFF + s * C::KV_BYTES + sl * C::KV_SLAB, &tm_v, v_full(s), 64 * sl,
                      j * C::BN, h, b);
      }
    }
  } else {
    // ---- Consumer warpgroups: 64 query rows each. --------------------------------------------
    setmaxnreg_inc<C::CONSUMER_REGS>();
    const int cw = wg - 1;
    const int warp_in_wg = (tid / 32) % 4;
    const int lane = tid % 32, g = lane / 4, t = lane % 4;
    const bool leader = (tid % 128) == 0;  // releases stages and issues the O store
    const int warp_row_min = m0 + 64 * cw + 16 * warp_in_wg;
    const int row0 = warp_row_min + g;  // this lane's rows: row0 and row0 + 8
    // Tiles [0, n_full) need no mask for this warp: all their keys are < S_k and, if causal,
    // <= the warp's first row.
    int n_full = p.S_k / C::BN;
    if (CAUSAL) n_full = min(n_full, (warp_row_min + 1) / C::BN);
    // Key tiles this warpgroup computes: none if all its rows are past S_q; if causal, only up to
    // its own last row (the CTA's later tiles are fully masked for it). Always <= n_tiles.
    const int wg_row0 = m0 + 64 * cw;
    int n_wg = 0;
    if (wg_row0 < p.S_q) n_wg = CAUSAL ? attn::ceil_div(min(p.S_k, wg_row0 + 64), C::BN) : n_tiles;

    const uint64_t q_desc = smem_desc(sb + C::Q_OFF + cw * 64 * 128, 16, 1024);
    auto k_desc = [&](int s) { return smem_desc(sb + C::K_OFF + s * C::KV_BYTES, 16, 1024); };
    auto v_desc = [&](int s) { return smem_desc(sb + C::V_OFF + s * C::KV_BYTES, C::KV_SLAB, 1024); };

    float o[C::D / 2];
    float s[C::BN / 2];
    uint32_t pf[C::BN / 4];
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f}, alpha[2];
#pragma unroll
    for (int i = 0; i < C::D / 2; ++i) o[i] = 0.f;
    const float scale_log2 = p.scale_log2;

    mbar_wait(q_full, 0);

#if OVERLAP
    if (n_wg > 0) {
      // Tile 0: S(0), softmax, P(0). Nothing to overlap with yet.
      mbar_wait(k_full(0), 0);
      wgmma_fence();
      issue_qk<C>(s, q_desc, k_desc(0));
      wgmma_commit();
      wgmma_wait<0>();
      pin(s);
      if (leader) mbar_arrive(k_empty(0));
      if (0 >= n_full) apply_mask<C, CAUSAL>(s, row0, 0, p.S_k, t);
      softmax_tile<C>(s, m, l, alpha, scale_log2);  // O = 0: alpha unused
      convert_p<C>(s, pf);
#pragma unroll 1
      for (int j = 1; j < n_wg; ++j) {
        const int sk = j % ST, sv = (j - 1) % ST;
        mbar_wait(k_full(sk), uint32_t(j / ST) & 1u);
        mbar_wait(v_full(sv), uint32_t((j - 1) / ST) & 1u);
        pin(o);
        pin(pf);
        wgmma_fence();
        issue_qk<C>(s, q_desc, k_desc(sk));  // S(j)
        wgmma_commit();
        issue_pv<C>(o, pf, v_desc(sv));      // O += P(j-1)·V(j-1)
        wgmma_commit();
        wgmma_wait<1>();                     // S(j) has landed; P·V may still run
        pin(s);
        if (leader) mbar_arrive(k_empty(sk));
        if (j >= n_full) apply_mask<C, CAUSAL>(s, row0, j * C::BN, p.S_k, t);
        softmax_tile<C>(s, m, l, alpha, scale_log2);
        wait_pv_and_rescale<C>(o, alpha, p.zero);  // P(j-1)·V(j-1) done: O and P are ours again
        pin(pf);
        if (leader) mbar_arrive(v_empty(sv));
        convert_p<C>(s, pf);
      }
      {
        const int j = n_wg - 1, sv = j % ST;
        mbar_wait(v_full(sv), uint32_t(j / ST) & 1u);
        pin(o);
        pin(pf);
        wgmma_fence();
        issue_pv<C>(o, pf, v_desc(sv));
        wgmma_commit();
        wgmma_wait<0>();
        pin(o);
        pin(pf);
        if (leader) mbar_arrive(v_empty(sv));
      }
    }  // n_wg > 0
#else
#pragma unroll 1
    for (int j = 0; j < n_wg; ++j) {
      const int st = j % ST;
      const uint32_t ph = uint32_t(j / ST) & 1u;
      mbar_wait(k_full(st), ph);
      wgmma_fence();
      issue_qk<C>(s, q_desc, k_desc(st));
      wgmma_commit();
      wgmma_wait<0>();
      pin(s);
      if (leader) mbar_arrive(k_empty(st));
      if (j >= n_full) apply_mask<C, CAUSAL>(s, row0, j * C::BN, p.S_k, t);
      softmax_tile<C>(s, m, l, alpha, scale_log2);
      rescale_o<C>(o, alpha);
      convert_p<C>(s, pf);
      mbar_wait(v_full(st), ph);
      pin(o);
      pin(pf);
      wgmma_fence();
      issue_pv<C>(o, pf, v_desc(st));
      wgmma_commit();
      wgmma_wait<0>();
      pin(o);
      pin(pf);
      if (leader) mbar_arrive(v_empty(st));
    }
#endif
    // Tiles the CTA loads but this warpgroup has no use for (causal: keys past its last row;
    // or rows all past S_q): it still releases each stage, once per phase and in order, so the
    // producer's ring keeps turning. Waiting for the stage to be full first is what keeps a
    // release from counting toward an earlier phase of the same barrier.
    if (leader) {
#pragma unroll 1
      for (int j = n_wg; j < n_tiles; ++j) {
        const int st = j % ST;
        const uint32_t ph = uint32_t(j / ST) & 1u;
        mbar_wait(k_full(st), ph);
        mbar_arrive(k_empty(st));
        mbar_wait(v_full(st), ph);
        mbar_arrive(v_empty(st));
      }
    }

    // ---- Epilogue: O /= l, LSE, O -> this warpgroup's Q rows (swizzled) -> TMA store. ------
#pragma unroll
    for (int hh = 0; hh < 2; ++hh) {
      float lt = l[hh];
      lt += __shfl_xor_sync(0xffffffffu, lt, 1);
      lt += __shfl_xor_sync(0xffffffffu, lt, 2);
      const float inv_l = 1.f / lt;  // lt >= 1: the row max itself contributes exp2(0)
#pragma unroll
      for (int i = 0; i < C::D / 8; ++i) {
        o[4 * i + 2 * hh] *= inv_l;
        o[4 * i + 2 * hh + 1] *= inv_l;
      }
      const int row = row0 + 8 * hh;
      // Natural-log LSE of the scaled scores: m and log2(l) are base 2, so multiply by ln 2.
      if (p.lse != nullptr && t == 0 && row < p.S_q)
        p.lse[int64_t(bh) * p.S_q + row] = (m[hh] + log2f(lt)) * kLn2;
    }
    // The last wgmma that read this warpgroup's Q rows has retired (wait_group 0 above), and no
    // other warpgroup reads them, so they can take O. Layout = the O tensor map's: slab i/8,
    // 128-byte rows, 16-byte chunk (i%8) ^ (row%8); with row%8 = g the 8 rows of one store hit
    // 8 distinct chunks: conflict-free.
#pragma unroll
    for (int hh = 0; hh < 2; ++hh) {
      const int r = 64 * cw + 16 * warp_in_wg + g + 8 * hh;  // CTA-local row
#pragma unroll
      for (int i = 0; i < C::D / 8; ++i) {
        const uint32_t off = uint32_t(C::Q_OFF + (i / 8) * C::Q_SLAB + r * 128 +
                                      (((i % 8) ^ g) << 4) + 4 * t);
        *reinterpret_cast<uint32_t*>(smem + off) = pack2<T>(o[4 * i + 2 * hh], o[4 * i + 2 * hh + 1]);
      }
    }
    fence_proxy_async();      // generic-proxy writes -> visible to the TMA store
    warpgroup_bar(1 + cw);
    if (leader && m0 + 64 * cw < p.S_q) {
#pragma unroll
      for (int sl = 0; sl < C::SLABS; ++sl)
        tma_store_4d(&tm_o, sb + C::Q_OFF + sl * C::Q_SLAB + cw * 64 * 128, 64 * sl, m0 + 64 * cw, h, b);
      tma_store_commit_and_drain();
    }
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

template <class C, bool CAUSAL>
cudaError_t launch(const AttnParams& p, cudaStream_t stream, EncodeFn enc) {
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
  const int64_t blocks = int64_t(p.B) * p.H * m_tiles;
  if (blocks > INT32_MAX) return cudaErrorInvalidValue;
  KParams kp;
  kp.lse = p.lse;
  kp.S_q = p.S_q;
  kp.S_k = p.S_k;
  kp.H = p.H;
  kp.bh_count = unsigned(int64_t(p.B) * p.H);
  kp.num_m_tiles = unsigned(m_tiles);
  kp.scale_log2 = p.softmax_scale * attn::kLog2e;
  kp.zero = 0u;
  kernel<<<unsigned(blocks), C::THREADS, smem, stream>>>(kp, tq, tk, tv, to);
  return cudaGetLastError();
}

template <typename T, int D>
cudaError_t dispatch_causal(const AttnParams& p, cudaStream_t stream, EncodeFn enc) {
  using C = typename ConfigFor<T, D>::type;
  return p.causal ? launch<C, true>(p, stream, enc) : launch<C, false>(p, stream, enc);
}

bool aligned16(const void* ptr) { return (reinterpret_cast<uintptr_t>(ptr) & 15u) == 0; }
// TMA: every stride a non-negative multiple of 16 bytes (8 16-bit elements).
bool strides_ok(int64_t sb, int64_t sh, int64_t ss) {
  return sb >= 0 && sh >= 0 && ss >= 0 && sb % 8 == 0 && sh % 8 == 0 && ss % 8 == 0;
}

}  // namespace

ATTN_DEFINE_ABI_VERSION

ATTN_EXPORT int attn_smem_bytes(int head_dim, int dtype) {
  if (dtype != ATTN_FP16 && dtype != ATTN_BF16) return 0;
  switch (head_dim) {  // the layout does not depend on which 16-bit type it holds
    case 64: return ConfigFor<__half, 64>::type::SMEM_BYTES;
    case 128: return ConfigFor<__half, 128>::type::SMEM_BYTES;
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
