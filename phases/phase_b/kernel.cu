// phase_b: tiled attention forward on tensor cores through WMMA, with S and P staged in
// shared memory.
//
// The second rung of the ladder. phase_a did everything in scalar fp32; here both matrix
// products (S = Q·Kᵀ and O += P·V) run on tensor cores through nvcuda::wmma 16x16x16
// fragments with fp32 accumulators. What is deliberately NOT done yet (that is phase_c):
// the scores S and probabilities P still round-trip through shared memory between the two
// products, because WMMA fragments have an opaque register layout and the row-wise softmax
// needs to know which row each value belongs to. That round trip is the cost this rung
// makes visible.
//
// Work decomposition (one thread block = one BLOCK_M tile of queries of one (batch, head)):
//   * Q tile [BLOCK_M, D] is staged through shared memory once and then kept in registers as
//     WMMA matrix_a fragments for the whole key loop.
//   * K and V are streamed through shared memory in tiles of BLOCK_N keys.
//   * Each warp owns ROWS_PER_WARP = BLOCK_M / NUM_WARPS consecutive query rows for both
//     products, its own rows of the S and P tiles, and its own running (max, sum). So only
//     the K/V tile loads need block-wide barriers; the S -> softmax -> P -> P·V chain inside a
//     warp needs only __syncwarp.
//   * The running output O lives in registers as WMMA accumulator fragments. To rescale it by
//     exp2(m_old - m_new) per row, each lane must know the row of each of its fragment
//     elements. WMMA does not document that mapping, so the kernel discovers it once: it
//     loads a 16x16 matrix whose element (r, c) is r into an accumulator fragment; element i
//     of that fragment then holds the row of element i of every accumulator fragment (all
//     accumulator fragments share one layout, or load/mma/store could not agree).
//
// Compile-time tunables (override with -DNAME=value):
//   BLOCK_M            query rows per thread block                         (default 64)
//   BLOCK_N            keys per K/V tile streamed through shared memory     (default 64)
//   NUM_WARPS          warps per thread block                               (default 4)
//   MIN_BLOCKS_PER_SM  second argument of __launch_bounds__ (register cap)  (default 1)
// Constraints (static_asserts): BLOCK_M / NUM_WARPS is a multiple of 16 (whole WMMA row
// tiles per warp), BLOCK_N is a multiple of 16 (whole WMMA column tiles).
//
// Shared memory per block (16-bit dtypes; pads: +8 elements on 16-bit rows, +8 on fp32 rows):
//   Q [BLOCK_M][D+8], K [BLOCK_N][D+8], V [BLOCK_N][D+8]            (fp16/bf16)
//   S [BLOCK_M][BLOCK_N+8] fp32, P [BLOCK_M][BLOCK_N+8] fp16/bf16, row_scale [BLOCK_M] fp32
//   defaults: D=128 -> 80,128 B (two blocks per SM); D=64 -> 55,552 B.
//
// Supported: D in {64, 128}, fp16 or bf16, any B/H/S_q/S_k >= 1, causal top-left aligned,
// rows 16-byte aligned (base pointers 16-byte aligned, all strides multiples of 8 elements).
#include <cstdint>
#include <cstring>
#include <mma.h>
#include "attn_abi.h"
#include "attn_common.cuh"

#ifndef BLOCK_M
#define BLOCK_M 64
#endif
#ifndef BLOCK_N
#define BLOCK_N 64
#endif
#ifndef NUM_WARPS
#define NUM_WARPS 4
#endif
#ifndef MIN_BLOCKS_PER_SM
#define MIN_BLOCKS_PER_SM 1
#endif

namespace {

using namespace nvcuda;

constexpr int kThreads = NUM_WARPS * 32;
constexpr int kRowsPerWarp = BLOCK_M / NUM_WARPS;
constexpr int kMFrags = kRowsPerWarp / 16;  // 16-row WMMA tiles per warp
constexpr int kNFrags = BLOCK_N / 16;       // 16-column WMMA tiles across a K/V tile

static_assert(BLOCK_M % NUM_WARPS == 0, "BLOCK_M must split evenly over the warps");
static_assert(kRowsPerWarp % 16 == 0, "each warp must own whole 16-row WMMA tiles");
static_assert(BLOCK_N % 16 == 0, "BLOCK_N must be a multiple of the 16-wide WMMA tile");

// Padding of shared-memory rows. 8 elements = 16 B for 16-bit tiles shifts consecutive rows by
// 4 banks, so the 8 row addresses of one ldmatrix phase hit distinct banks. fp32 tiles get 8
// floats = 32 B: then the accumulator store (8 rows x 4 lanes x 8 B per half-warp) and the
// softmax's float4 reads (see below) are both conflict-free.
constexpr int kPad16 = 8;
constexpr int kPad32 = 8;

constexpr float kLn2 = 0.6931471805599453f;

// Shared-memory carve-up for one head dimension. Every region size is a multiple of 256 B
// (16 rows times a pitch that is a multiple of 8), so each WMMA tile pointer keeps the 32-byte
// alignment load/store_matrix_sync require.
template <int D>
struct Smem {
  static constexpr int ld_qkv = D + kPad16;       // Q, K, V pitch (elements)
  static constexpr int ld_s = BLOCK_N + kPad32;   // S pitch (floats)
  static constexpr int ld_p = BLOCK_N + kPad16;   // P pitch (elements)
  static constexpr size_t q_off = 0;
  static constexpr size_t k_off = q_off + size_t(BLOCK_M) * ld_qkv * 2;
  static constexpr size_t v_off = k_off + size_t(BLOCK_N) * ld_qkv * 2;
  static constexpr size_t s_off = v_off + size_t(BLOCK_N) * ld_qkv * 2;
  static constexpr size_t p_off = s_off + size_t(BLOCK_M) * ld_s * 4;
  static constexpr size_t scale_off = p_off + size_t(BLOCK_M) * ld_p * 2;
  static constexpr size_t bytes = scale_off + size_t(BLOCK_M) * 4;
  static_assert(bytes <= 227 * 1024, "tile configuration exceeds the 227 KB per-block limit");
};

// Two floats -> one 32-bit word holding two fp16/bf16 values (round to nearest), low half first.
template <typename T> __device__ __forceinline__ uint32_t pack2(float lo, float hi);
template <> __device__ __forceinline__ uint32_t pack2<__half>(float lo, float hi) {
  __half2 h = __floats2half2_rn(lo, hi);
  uint32_t u;
  memcpy(&u, &h, 4);
  return u;
}
template <> __device__ __forceinline__ uint32_t pack2<__nv_bfloat16>(float lo, float hi) {
  __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
  uint32_t u;
  memcpy(&u, &h, 4);
  return u;
}

// Copies rows [row0, row0 + ROWS) of a [*, D] global tensor (row pitch `stride` elements) into a
// shared tile with pitch D + kPad16, in 16-byte chunks. Rows at or past row_end are written as
// zeros so that no garbage (possibly NaN/Inf bits) ever reaches a tensor-core product.
// Thread t always takes chunk column t % kChunksPerRow, starting at row t / kChunksPerRow and
// stepping kRowStep rows: consecutive threads read consecutive 16 B of a row (coalesced), each
// 8-thread phase of the shared stores covers 128 contiguous bytes (conflict-free), and every
// address is one base pointer plus a multiple of a fixed 64-bit row step.
// All loads are issued into registers before any store, so they are in flight together.
template <typename T, int ROWS, int D>
__device__ __forceinline__ void load_tile(T* __restrict__ dst, const T* __restrict__ src,
                                          int64_t stride, int row0, int row_end, int tid) {
  constexpr int kChunksPerRow = D / 8;  // 8 x 16-bit = 16 B
  static_assert(kThreads % kChunksPerRow == 0, "a thread must keep one chunk column");
  constexpr int kRowStep = kThreads / kChunksPerRow;
  constexpr int kPerThread = attn::ceil_div(ROWS, kRowStep);
  const int c = tid % kChunksPerRow;
  const int r0 = tid / kChunksPerRow;
  const T* g = src + int64_t(row0 + r0) * stride + c * 8;
  const int64_t g_step = int64_t(kRowStep) * stride;
  uint4 buf[kPerThread];
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int r = r0 + i * kRowStep;
    buf[i] = make_uint4(0u, 0u, 0u, 0u);
    if ((ROWS % kRowStep == 0 || r < ROWS) && row0 + r < row_end)
      buf[i] = *reinterpret_cast<const uint4*>(g + i * g_step);
  }
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int r = r0 + i * kRowStep;
    if (ROWS % kRowStep == 0 || r < ROWS)
      *reinterpret_cast<uint4*>(dst + r * (D + kPad16) + c * 8) = buf[i];
  }
}

// Fragment loads from shared memory. For fp16 nvcc emits wmma.load with the .shared state space
// and ptxas turns it into ldmatrix. For bf16 (CUDA 13.0) it emits the generic form even for a
// __shared__ array, which ptxas can only lower to one 32-bit generic load per register plus
// transposes (LD.E + MOVM, no ldmatrix), and ~40 more registers. So for bf16 issue the
// documented PTX instruction with .shared ourselves. The bf16 fragments are 4 x b32 registers
// in PTX (two bf16 each), exactly the 8-element storage of the wmma::fragment, so the layout is
// the one wmma::mma_sync expects. "memory" keeps the compiler from moving the load across
// barriers.
template <typename Frag, typename T>
__device__ __forceinline__ void load_frag(Frag& f, const T* p, unsigned ldm) {
  wmma::load_matrix_sync(f, p, ldm);
}
#define PHASE_B_BF16_LOAD(FRAG_USE, LAYOUT, PTX_OP)                                            \
  __device__ __forceinline__ void load_frag(                                                  \
      wmma::fragment<wmma::FRAG_USE, 16, 16, 16, __nv_bfloat16, wmma::LAYOUT>& f,            \
      const __nv_bfloat16* p, unsigned ldm) {                                                 \
    const uint32_t addr = uint32_t(__cvta_generic_to_shared(p));                              \
    uint32_t r[4];                                                                            \
    asm volatile(PTX_OP " {%0, %1, %2, %3}, [%4], %5;"                                        \
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                             \
                 : "r"(addr), "r"(ldm)                                                        \
                 : "memory");                                                                 \
    static_assert(sizeof(f.x) == sizeof(r), "bf16 16x16x16 fragment is 4 registers");       \
    memcpy(f.x, r, sizeof(r));                                                                \
  }
PHASE_B_BF16_LOAD(matrix_a, row_major, "wmma.load.a.sync.aligned.row.m16n16k16.shared.bf16")
PHASE_B_BF16_LOAD(matrix_b, col_major, "wmma.load.b.sync.aligned.col.m16n16k16.shared.bf16")
PHASE_B_BF16_LOAD(matrix_b, row_major, "wmma.load.b.sync.aligned.row.m16n16k16.shared.bf16")
#undef PHASE_B_BF16_LOAD

template <typename T, int D>
__global__ void __launch_bounds__(kThreads, MIN_BLOCKS_PER_SM)
attn_fwd_wmma_kernel(const AttnParams p) {
  using L = Smem<D>;
  using AccFrag = wmma::fragment<wmma::accumulator, 16, 16, 16, float>;
  using QFrag = wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major>;
  using PFrag = wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major>;
  // Kᵀ as matrix_b: column n of Kᵀ is row n of K, contiguous in shared memory -> col_major.
  using KtFrag = wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major>;
  // V as matrix_b: row k of V is contiguous -> row_major.
  using VFrag = wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major>;
  constexpr int kDFrags = D / 16;

  extern __shared__ __align__(128) unsigned char smem[];
  T* q_s = reinterpret_cast<T*>(smem + L::q_off);
  T* k_s = reinterpret_cast<T*>(smem + L::k_off);
  T* v_s = reinterpret_cast<T*>(smem + L::v_off);
  float* s_s = reinterpret_cast<float*>(smem + L::s_off);
  T* p_s = reinterpret_cast<T*>(smem + L::p_off);
  float* row_scale_s = reinterpret_cast<float*>(smem + L::scale_off);

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int warp_row0 = warp * kRowsPerWarp;  // first block-local row this warp owns

  // Block -> (batch*head, query tile). (b, h) varies fastest; query tiles are visited in
  // reverse so that, under causal masking, the longest rows (last tiles) start first and the
  // short ones fill the tail of the grid.
  // The host guarantees B * H * num_q_tiles fits in int32, so 32-bit division suffices.
  const int bh_count = p.B * p.H;
  const int num_q_tiles = attn::ceil_div(p.S_q, BLOCK_M);
  const int bh = int(blockIdx.x) % bh_count;
  const int q_tile = num_q_tiles - 1 - int(blockIdx.x) / bh_count;
  const int b = bh / p.H, h = bh % p.H;
  const int m0 = q_tile * BLOCK_M;

  const T* q_g =
      static_cast<const T*>(p.q) + attn::row_offset(p.q_stride_b, p.q_stride_h, 0, b, h, 0);
  const T* k_g =
      static_cast<const T*>(p.k) + attn::row_offset(p.k_stride_b, p.k_stride_h, 0, b, h, 0);
  const T* v_g =
      static_cast<const T*>(p.v) + attn::row_offset(p.v_stride_b, p.v_stride_h, 0, b, h, 0);
  T* o_g = static_cast<T*>(p.o) + attn::row_offset(p.o_stride_b, p.o_stride_h, 0, b, h, 0);

  // Scores are kept in base 2: s2 = (q·k) * scale * log2(e), so exp(scale*q·k - m) becomes
  // exp2(s2 - m2) and the scale folds into the one multiply that reads S.
  const float scale_log2 = p.softmax_scale * attn::kLog2e;

  // ---- Prologue: stage Q, keep it in registers. -------------------------------------------
  load_tile<T, BLOCK_M, D>(q_s, q_g, p.q_stride_s, m0, p.S_q, tid);

  // Row-index matrix for discovering the accumulator layout (see header). Each warp writes it
  // into the top-left 16x16 corner of its own rows of the S tile, which is free until the
  // first Q·Kᵀ store (that store comes after a __syncthreads).
  float* s_warp = s_s + warp_row0 * L::ld_s;
  for (int i = lane; i < 16 * 16; i += 32) s_warp[(i / 16) * L::ld_s + i % 16] = float(i / 16);

  __syncthreads();  // Q tile (written by all threads) and the row-index matrix are visible.

  QFrag q_frag[kMFrags][kDFrags];
#pragma unroll
  for (int mf = 0; mf < kMFrags; ++mf)
#pragma unroll
    for (int kk = 0; kk < kDFrags; ++kk)
      load_frag(q_frag[mf][kk], q_s + (warp_row0 + mf * 16) * L::ld_qkv + kk * 16, L::ld_qkv);

  // frag_row[i]: row (0..15 within a 16x16 tile) of element i of any accumulator fragment.
  int frag_row[AccFrag::num_elements];
  {
    AccFrag id_frag;
    wmma::load_matrix_sync(id_frag, s_warp, L::ld_s, wmma::mem_row_major);
#pragma unroll
    for (int i = 0; i < AccFrag::num_elements; ++i) frag_row[i] = int(id_frag.x[i]);
  }

  // Running output (fp32, registers) and per-row softmax state. In the softmax, lane pair
  // (2r, 2r+1) handles row r of each 16-row group; both lanes hold that row's (m, l).
  AccFrag o_frag[kMFrags][kDFrags];
#pragma unroll
  for (int mf = 0; mf < kMFrags; ++mf)
#pragma unroll
    for (int j = 0; j < kDFrags; ++j) wmma::fill_fragment(o_frag[mf][j], 0.f);
  float m_run[kMFrags], l_run[kMFrags];
#pragma unroll
  for (int mf = 0; mf < kMFrags; ++mf) { m_run[mf] = -INFINITY; l_run[mf] = 0.f; }

  const int col_half = lane & 1;  // which interleaved half of a score row this lane reads
  const int row_in16 = lane >> 1; // row within a 16-row group this lane's softmax handles

  // Causal: query i sees keys j <= i, so this tile (rows < m0 + BLOCK_M) never needs keys at
  // or past m0 + BLOCK_M; K tiles entirely above the diagonal are skipped.
  const int n_end = p.causal ? min(p.S_k, m0 + BLOCK_M) : p.S_k;
  const int n_tiles = attn::ceil_div(n_end, BLOCK_N);

  for (int t = 0; t < n_tiles; ++t) {
    const int n0 = t * BLOCK_N;

    // Every warp must have finished reading the previous K/V tile (Q·Kᵀ and P·V) before it is
    // overwritten. On t == 0 this also orders the row-index reads before the first S store.
    __syncthreads();
    load_tile<T, BLOCK_N, D>(k_s, k_g, p.k_stride_s, n0, p.S_k, tid);
    load_tile<T, BLOCK_N, D>(v_s, v_g, p.v_stride_s, n0, p.S_k, tid);
    __syncthreads();  // K/V tile written by all threads is visible to all warps.

    // ---- S = Q·Kᵀ for this warp's rows, on tensor cores, fp32 accumulate. ------------------
    // kNFrags independent accumulators per row tile, so consecutive HMMAs do not wait on
    // each other.
    {
      AccFrag s_frag[kMFrags][kNFrags];
#pragma unroll
      for (int mf = 0; mf < kMFrags; ++mf)
#pragma unroll
        for (int nf = 0; nf < kNFrags; ++nf) wmma::fill_fragment(s_frag[mf][nf], 0.f);
#pragma unroll
      for (int kk = 0; kk < kDFrags; ++kk) {
#pragma unroll
        for (int nf = 0; nf < kNFrags; ++nf) {
          KtFrag kt_frag;
          load_frag(kt_frag, k_s + (nf * 16) * L::ld_qkv + kk * 16, L::ld_qkv);
#pragma unroll
          for (int mf = 0; mf < kMFrags; ++mf)
            wmma::mma_sync(s_frag[mf][nf], q_frag[mf][kk], kt_frag, s_frag[mf][nf]);
        }
      }
      // The softmax needs whole rows, and WMMA's register layout is opaque: store S to the
      // warp's own rows of the fp32 shared tile.
#pragma unroll
      for (int mf = 0; mf < kMFrags; ++mf)
#pragma unroll
        for (int nf = 0; nf < kNFrags; ++nf)
          wmma::store_matrix_sync(s_s + (warp_row0 + mf * 16) * L::ld_s + nf * 16, s_frag[mf][nf],
                                  L::ld_s, wmma::mem_row_major);
    }
    __syncwarp();  // S rows stored by some lanes are read by others below.

    // ---- Online softmax, fp32, on this warp's rows. ----------------------------------------
    // Lane (2r + half) reads the float4 chunks 2i + half of row r: with the 32-byte row pad,
    // each 8-lane phase of a 128-bit read (rows r..r+3, both halves) hits 8 distinct 4-bank
    // groups.
#pragma unroll
    for (int mf = 0; mf < kMFrags; ++mf) {
      const int row = warp_row0 + mf * 16 + row_in16;  // block-local row
      const int q_idx = m0 + row;                      // query index in the sequence
      const float* s_row = s_s + row * L::ld_s;
      T* p_row = p_s + row * L::ld_p;

      float x[BLOCK_N / 2];
      float tile_max = -INFINITY;
#pragma unroll
      for (int i = 0; i < BLOCK_N / 8; ++i) {
        const int c = 4 * (2 * i + col_half);
        const float4 s4 = *reinterpret_cast<const float4*>(s_row + c);
        const float sv[4] = {s4.x, s4.y, s4.z, s4.w};
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int col = n0 + c + e;
          // Ragged key tail (zero-filled K rows would otherwise score 0) and causal mask:
          // both go to -inf BEFORE the max so they cannot raise it.
          const bool masked = col >= p.S_k || (p.causal && col > q_idx);
          x[4 * i + e] = masked ? -INFINITY : sv[e] * scale_log2;
          tile_max = fmaxf(tile_max, x[4 * i + e]);
        }
      }
      tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 1));

      const float m_new = fmaxf(m_run[mf], tile_max);
      // A row with every key masked so far has m_new = -inf; subtracting 0 instead keeps
      // exp2(-inf - (-inf)) = NaN out (it yields p = 0, alpha = 0). With top-left causal
      // masking key 0 is visible to every row, so this is a guard, not a hot path.
      const float m_use = m_new == -INFINITY ? 0.f : m_new;
      const float alpha = exp2f(m_run[mf] - m_use);  // rescales what was accumulated so far

      float sum = 0.f;
#pragma unroll
      for (int i = 0; i < BLOCK_N / 8; ++i) {
        const int c = 4 * (2 * i + col_half);
        float pv[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          // exp2f: one SFU ex2 plus a short denormal-range fixup in a non-fast-math build.
          pv[e] = exp2f(x[4 * i + e] - m_use);
          sum += pv[e];
        }
        // P goes to shared memory as 16-bit, the operand type of the P·V tensor-core product.
        uint2 packed;
        packed.x = pack2<T>(pv[0], pv[1]);
        packed.y = pack2<T>(pv[2], pv[3]);
        *reinterpret_cast<uint2*>(p_row + c) = packed;
      }
      sum += __shfl_xor_sync(0xffffffffu, sum, 1);

      l_run[mf] = l_run[mf] * alpha + sum;
      m_run[mf] = m_new;
      if (col_half == 0) row_scale_s[row] = alpha;  // read back below by the fragment owners
    }
    __syncwarp();  // P rows and alphas written by some lanes are read by others below.

    // ---- O = alpha * O + P·V, on tensor cores. ---------------------------------------------
#pragma unroll
    for (int mf = 0; mf < kMFrags; ++mf) {
      float a[AccFrag::num_elements];
#pragma unroll
      for (int i = 0; i < AccFrag::num_elements; ++i)
        a[i] = row_scale_s[warp_row0 + mf * 16 + frag_row[i]];
#pragma unroll
      for (int j = 0; j < kDFrags; ++j)
#pragma unroll
        for (int i = 0; i < AccFrag::num_elements; ++i) o_frag[mf][j].x[i] *= a[i];
    }
    // Not unrolled: kk indexes no register array, and unrolling lets the scheduler hoist every
    // V fragment of the tile at once (kNFrags * kDFrags * 4 registers), which spills.
#pragma unroll 1
    for (int kk = 0; kk < kNFrags; ++kk) {
      PFrag p_frag[kMFrags];
#pragma unroll
      for (int mf = 0; mf < kMFrags; ++mf)
        load_frag(p_frag[mf], p_s + (warp_row0 + mf * 16) * L::ld_p + kk * 16, L::ld_p);
#pragma unroll
      for (int j = 0; j < kDFrags; ++j) {
        VFrag v_frag;
        load_frag(v_frag, v_s + (kk * 16) * L::ld_qkv + j * 16, L::ld_qkv);
#pragma unroll
        for (int mf = 0; mf < kMFrags; ++mf)
          wmma::mma_sync(o_frag[mf][j], p_frag[mf], v_frag, o_frag[mf][j]);
      }
    }
  }

  // ---- Epilogue: O /= l, write LSE, store O as fp16/bf16. -----------------------------------
  // Everything below touches only this warp's rows of S and row_scale, so warp-level ordering
  // suffices. This __syncwarp orders the last iteration's row_scale reads (the alpha rescale)
  // before the 1/l writes that reuse the same slots.
  __syncwarp();
#pragma unroll
  for (int mf = 0; mf < kMFrags; ++mf) {
    const int row = warp_row0 + mf * 16 + row_in16;
    const int q_idx = m0 + row;
    const float l = l_run[mf];
    if (col_half == 0) {
      row_scale_s[row] = l > 0.f ? __fdividef(1.f, l) : 0.f;
      // Natural-log LSE of the scaled scores: m and log2(l) are base 2, so multiply by ln 2.
      if (p.lse != nullptr && q_idx < p.S_q)
        p.lse[bh * int64_t(p.S_q) + q_idx] = (m_run[mf] + __log2f(l)) * kLn2;
    }
  }
  __syncwarp();
#pragma unroll
  for (int mf = 0; mf < kMFrags; ++mf) {
    float inv_l[AccFrag::num_elements];
#pragma unroll
    for (int i = 0; i < AccFrag::num_elements; ++i)
      inv_l[i] = row_scale_s[warp_row0 + mf * 16 + frag_row[i]];
#pragma unroll
    for (int j = 0; j < kDFrags; ++j)
#pragma unroll
      for (int i = 0; i < AccFrag::num_elements; ++i) o_frag[mf][j].x[i] *= inv_l[i];
  }

  // Fragments cannot be stored to global as 16-bit directly, and a direct fp32 store would
  // be neither the right type nor coalesced: stage CW columns at a time through the warp's own
  // rows of the S tile, then convert and write 16 B per lane with the S_q row bound.
  constexpr int CW = BLOCK_N < D ? BLOCK_N : D;  // staging width in columns (fits the S pitch)
  static_assert(D % CW == 0 && CW % 16 == 0, "staging width must tile D");
  constexpr int kChunksPerRow = CW / 8;
#pragma unroll
  for (int cc = 0; cc < D / CW; ++cc) {
#pragma unroll
    for (int mf = 0; mf < kMFrags; ++mf)
#pragma unroll
      for (int jj = 0; jj < CW / 16; ++jj)
        wmma::store_matrix_sync(s_s + (warp_row0 + mf * 16) * L::ld_s + jj * 16,
                                o_frag[mf][cc * (CW / 16) + jj], L::ld_s, wmma::mem_row_major);
    __syncwarp();  // staged by fragment owners, read by other lanes
#pragma unroll
    for (int idx = lane; idx < kRowsPerWarp * kChunksPerRow; idx += 32) {
      const int r = idx / kChunksPerRow, c = idx % kChunksPerRow;
      const int q_idx = m0 + warp_row0 + r;
      if (q_idx < p.S_q) {
        const float* src = s_s + (warp_row0 + r) * L::ld_s + c * 8;
        const float4 lo = *reinterpret_cast<const float4*>(src);
        const float4 hi = *reinterpret_cast<const float4*>(src + 4);
        uint4 out;
        out.x = pack2<T>(lo.x, lo.y);
        out.y = pack2<T>(lo.z, lo.w);
        out.z = pack2<T>(hi.x, hi.y);
        out.w = pack2<T>(hi.z, hi.w);
        *reinterpret_cast<uint4*>(o_g + int64_t(q_idx) * p.o_stride_s + cc * CW + c * 8) = out;
      }
    }
    __syncwarp();  // reads done before the next chunk overwrites the staging rows
  }
}

template <typename T, int D>
cudaError_t launch(const AttnParams& p, cudaStream_t stream) {
  auto kernel = attn_fwd_wmma_kernel<T, D>;
  const size_t smem = Smem<D>::bytes;
  if (smem > 48 * 1024) {
    const cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  // One flat grid dimension (limit 2^31 - 1) so no single B, H or S_q hits the 65535 limit
  // of gridDim.y/z.
  const int64_t blocks = int64_t(p.B) * p.H * attn::ceil_div(p.S_q, BLOCK_M);
  if (blocks > INT32_MAX) return cudaErrorInvalidValue;
  kernel<<<unsigned(blocks), kThreads, smem, stream>>>(p);
  return cudaGetLastError();
}


}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!attn::params_are_valid(p)) return cudaErrorInvalidValue;
  if (p->D != 64 && p->D != 128) return cudaErrorInvalidValue;
  // 16-byte vector loads/stores need every row to start 16-byte aligned.
  if (!attn::rows_are_16b_aligned(p)) return cudaErrorInvalidValue;

  cudaError_t e;
  if (p->dtype == ATTN_FP16)
    e = p->D == 64 ? launch<__half, 64>(*p, stream) : launch<__half, 128>(*p, stream);
  else
    e = p->D == 64 ? launch<__nv_bfloat16, 64>(*p, stream) : launch<__nv_bfloat16, 128>(*p, stream);
  return int(e);
}

ATTN_DEFINE_ABI_VERSION

ATTN_EXPORT int attn_smem_bytes(int head_dim, int /*dtype*/) {
  return head_dim == 64 ? int(Smem<64>::bytes) : head_dim == 128 ? int(Smem<128>::bytes) : 0;
}
