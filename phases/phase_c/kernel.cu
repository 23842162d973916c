// phase_c: fused attention forward in the FlashAttention-2 style, on mma.sync tensor cores.
//
// phase_b ran both products on tensor cores through WMMA but had to park S and P in shared
// memory between them, because WMMA's register layout is opaque. Here the layouts are the
// documented ones of mma.sync.m16n8k16, so every lane knows which (row, column) each of its
// accumulator values is, and the whole S -> softmax -> P -> P·V chain stays in registers:
//
//   * Q·Kᵀ and P·V both run as mma.sync.aligned.m16n8k16 with fp32 accumulators; operands come
//     from shared memory through ldmatrix.x4 (ldmatrix.x4.trans for V).
//   * The fp32 S accumulators of two adjacent 8-key n-tiles, rounded to fp16/bf16, ARE the
//     m16n8k16 A fragment of P for 16 keys, so P never leaves registers (see pv_gemm).
//   * Online softmax in base 2 (softmax scale * log2(e) folded into one FFMA before exp2),
//     running max and partial row sum per lane; 1/l is applied once, in the epilogue. The
//     running output is rescaled only on tiles where some row's max moved (a warp vote).
//   * K/V tiles are double-buffered in shared memory and fetched with cp.async (16 B, .cg,
//     zero-fill past S_k), so tile j+1 streams in while tile j is being computed. One
//     __syncthreads per key tile.
//   * Shared tiles use an XOR swizzle of 16-byte chunks (chunk ^= row % 8): conflict-free for
//     both the cp.async writes and the ldmatrix reads, with no padding.
//   * Causal: key tiles wholly above the diagonal are never loaded; only the tiles that
//     straddle the diagonal (or the ragged S_k end) run the element mask. Query tiles are
//     scheduled last-to-first, so the longest CTAs start first.
//
// Work decomposition: one CTA owns BLOCK_M query rows of one (batch, head); each of its
// NUM_WARPS warps owns BLOCK_M / NUM_WARPS consecutive rows (MT = rows/16 m16 atoms) for both
// products, so the only data the warps share is the K/V tiles. With the defaults each warp owns
// 32 rows (MT = 2), so each 512-byte ldmatrix.x4 of K or V feeds four MMAs. With 16 rows per
// warp it would feed two, and shared memory (128 B/clk/SM) rather than the tensor cores
// (~2800 dense FLOP/clk/SM through mma.sync) would cap the kernel near 70% of mma.sync peak.
//
// Compile-time tunables (override with -DNAME=value):
//   BLOCK_M           query rows per CTA                                   (default 128)
//   NUM_WARPS         warps per CTA                                        (default 4)
//   BLOCK_N_D64       keys per K/V tile for head dim 64                    (default 64)
//   BLOCK_N_D128      keys per K/V tile for head dim 128                   (default 32)
//   BLOCK_N           if defined, overrides both BLOCK_N_D64 and BLOCK_N_D128
//   Q_IN_REGS_D64     1: each warp keeps its Q fragments in registers for the whole key loop;
//                     0: it re-reads them from shared memory (ldmatrix) every key tile (default 1)
//   Q_IN_REGS_D128    same for head dim 128                                (default 0)
//   Q_IN_REGS         if defined, overrides both
//   MIN_BLOCKS_PER_SM second argument of __launch_bounds__                 (default 1)
// Constraints (static_asserts): BLOCK_M / NUM_WARPS a multiple of 16, BLOCK_N a multiple of 16,
// tiles that split evenly into the CTA's 16-byte copy passes.
//
// Why these defaults: the binding constraint is 255 registers per thread with zero spills.
// A warp with 32 rows holds its O accumulator (32 x D fp32 = D registers per lane) and its S
// tile (BLOCK_N registers per lane) at once, plus operand fragments in flight.
//   D=128: O alone is 128 registers, so S gets 32 keys (BLOCK_N = 32, ~242 registers) and Q
//          (64 more registers) is re-read from shared memory each tile. 128 x 48 fits at
//          exactly 255; 128 x 64, FlashAttention-2's tile for d=128 on sm80/sm90, spills in the
//          causal variant here (FA2 itself reports ~170 B of spills for it); FA2 uses 128 x 32
//          for d=128 on sm86/sm89.
//   D=64:  O is 64 registers, S with 64 keys another 64, and Q in registers 32 (~230 total).
//
// Shared memory per CTA (no padding; all tiles [rows][D] 16-bit, swizzled):
//   Q [BLOCK_M][D] + 2 stages x (K [BLOCK_N][D] + V [BLOCK_N][D])
//   defaults: D=64 -> 16 KB + 32 KB = 48 KB;  D=128 -> 32 KB + 32 KB = 64 KB.
//   Two CTAs per SM either way (registers are the limit): 8 warps per SM.
//
// Supported: D in {64, 128}, fp16 or bf16, any B/H/S_q/S_k >= 1, causal top-left aligned,
// rows 16-byte aligned (base pointers 16-byte aligned, all strides multiples of 8 elements).
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "attn_abi.h"
#include "attn_common.cuh"

#ifndef BLOCK_M
#define BLOCK_M 128
#endif
#ifndef NUM_WARPS
#define NUM_WARPS 4
#endif
#ifdef BLOCK_N
#undef BLOCK_N_D64
#undef BLOCK_N_D128
#define BLOCK_N_D64 BLOCK_N
#define BLOCK_N_D128 BLOCK_N
#endif
#ifndef BLOCK_N_D64
#define BLOCK_N_D64 64
#endif
#ifndef BLOCK_N_D128
#define BLOCK_N_D128 32
#endif
#ifdef Q_IN_REGS
#undef Q_IN_REGS_D64
#undef Q_IN_REGS_D128
#define Q_IN_REGS_D64 Q_IN_REGS
#define Q_IN_REGS_D128 Q_IN_REGS
#endif
#ifndef Q_IN_REGS_D64
#define Q_IN_REGS_D64 1
#endif
#ifndef Q_IN_REGS_D128
#define Q_IN_REGS_D128 0
#endif
#ifndef MIN_BLOCKS_PER_SM
#define MIN_BLOCKS_PER_SM 1
#endif

namespace {

constexpr float kLn2 = 0.6931471805599453f;

// ---------------------------------------------------------------------------------------------
// Configuration: everything the kernel's shape depends on, derived from the tunables.
// ---------------------------------------------------------------------------------------------
template <typename T_, int D_, int BM_, int BN_, int WARPS_, bool Q_REGS_>
struct Config {
  using T = T_;
  static constexpr int D = D_;
  static constexpr int BM = BM_;             // query rows per CTA
  static constexpr int BN = BN_;             // keys per K/V tile
  static constexpr int WARPS = WARPS_;
  static constexpr int THREADS = WARPS * 32;
  static constexpr bool Q_REGS = Q_REGS_;    // Q fragments live in registers

  static constexpr int WM = BM / WARPS;      // query rows per warp
  static constexpr int MT = WM / 16;         // m16 atoms per warp
  static constexpr int NT = BN / 8;          // n8 tiles of S (keys)
  static constexpr int DT = D / 8;           // n8 tiles of O (head dim)
  static constexpr int KQ = D / 16;          // k16 steps of Q·Kᵀ (over the head dim)
  static constexpr int KP = BN / 16;         // k16 steps of P·V (over the keys)

  static constexpr int CHUNKS = D / 8;       // 16-byte chunks per tile row
  static constexpr int ROW_BYTES = D * 2;
  static constexpr int Q_BYTES = BM * ROW_BYTES;
  static constexpr int KV_BYTES = BN * ROW_BYTES;                 // one K (or V) stage
  // Byte offsets of the tiles from the start of dynamic shared memory. Every tile (and every
  // stage) starts at a multiple of 128 bytes, which LaneAddr relies on.
  static constexpr int Q_OFF = 0;
  static constexpr int K_OFF = Q_OFF + Q_BYTES;                   // stages at +0, +KV_BYTES
  static constexpr int V_OFF = K_OFF + 2 * KV_BYTES;              // stages at +0, +KV_BYTES
  static constexpr int SMEM_BYTES = V_OFF + 2 * KV_BYTES;

  static_assert(D == 64 || D == 128, "head dim must be 64 or 128");
  static_assert(BM % WARPS == 0 && WM % 16 == 0, "each warp must own whole m16 atoms");
  static_assert(BN % 16 == 0, "BLOCK_N must be a multiple of 16 (k16 steps of P·V)");
  static_assert(CHUNKS % 8 == 0, "the swizzle permutes groups of 8 chunks (128-byte rows)");
  static_assert(THREADS % CHUNKS == 0, "a copy pass must cover whole rows");
  static_assert(BM % (THREADS / CHUNKS) == 0 && BN % (THREADS / CHUNKS) == 0,
                "tiles must split evenly into copy passes");
  static_assert(SMEM_BYTES <= 227 * 1024, "tile configuration exceeds 227 KB of shared memory");
};

template <typename T, int D> struct ConfigFor;
template <typename T> struct ConfigFor<T, 64> {
  using type = Config<T, 64, BLOCK_M, BLOCK_N_D64, NUM_WARPS, Q_IN_REGS_D64 != 0>;
};
template <typename T> struct ConfigFor<T, 128> {
  using type = Config<T, 128, BLOCK_M, BLOCK_N_D128, NUM_WARPS, Q_IN_REGS_D128 != 0>;
};

// ---------------------------------------------------------------------------------------------
// Shared-memory swizzle.
//
// A tile row is D*2 = 128 or 256 bytes, a multiple of the 128-byte bank period, so unswizzled,
// chunk c of every row sits on the same 4 banks. The two access patterns:
//   * ldmatrix: the 8 lanes of one 8x8 matrix address 8 consecutive rows at the same logical
//     chunk, and those 8 x 16 bytes are served together;
//   * cp.async writes: 8 consecutive threads write 8 consecutive chunks of one row.
// Storing logical chunk c of row r at physical chunk c ^ (r % 8) turns the first pattern into 8
// distinct chunk positions mod 8 (all 32 banks), and keeps the second a permutation of one
// 128-byte group (also all 32 banks). Both are conflict-free.
// ---------------------------------------------------------------------------------------------
template <int CHUNKS>
__host__ __device__ __forceinline__ uint32_t swizzle(int row, int chunk) {
  return uint32_t(row * CHUNKS + (chunk ^ (row & 7))) * 16u;  // byte offset within the tile
}

// ---------------------------------------------------------------------------------------------
// PTX wrappers.
// ---------------------------------------------------------------------------------------------
// 16-byte global -> shared copy that bypasses L1 (.cg: K/V are reused through L2 by other
// CTAs, never by this one through L1). src_bytes = 0 reads nothing and writes 16 zero bytes.
__device__ __forceinline__ void cp_async_16(uint32_t dst, const void* src, bool valid) {
  const int src_bytes = valid ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
               "r"(src_bytes)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// Four 8x8 b16 matrices; lanes 8i..8i+7 give the row addresses of matrix i and every lane gets
// register i = (row lane/4, columns 2*(lane%4), +1) of matrix i: exactly one m16n8k16 operand
// register. The "memory" clobber keeps the compiler from moving these shared-memory reads
// across the plain C++ shared stores of the epilogue.
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr)
               : "memory");
}
// Same, transposed: register i = (rows 2*(lane%4), +1; column lane/4) of matrix i.
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr)
               : "memory");
}

// D += A·B for one m16n8k16 tile, fp32 accumulate. Fragment layouts (g = lane/4, t = lane%4),
// each 32-bit register holding two 16-bit values, the lower column/k index in the low half:
//   A (16x16, row major): a0 = (g,   2t..2t+1)  a1 = (g+8, 2t..2t+1)
//                         a2 = (g,   2t+8..+9)  a3 = (g+8, 2t+8..+9)
//   B (16x8, k x n):      b0 = (k 2t..2t+1,   n g)   b1 = (k 2t+8..+9, n g)
//   C/D (16x8, fp32):     c0,c1 = (g, 2t), (g, 2t+1)   c2,c3 = (g+8, 2t), (g+8, 2t+1)
template <typename T>
__device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                          uint32_t b1) {
  if constexpr (std::is_same_v<T, __half>) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  } else {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
}

// exp2 as --use_fast_math lowers exp2f: a single MUFU.EX2. The build does not pass fast-math,
// and the IEEE exp2f adds a compare and two predicated multiplies per element to produce
// subnormal results; a softmax weight below 2^-126 of the row max is 0 for all purposes.
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
// Global -> shared tile copy.
// Copies rows [row0, row0 + ROWS) of one head into a swizzled [ROWS][D] tile. Consecutive
// threads take consecutive 16-byte chunks of a row: coalesced global reads, conflict-free
// shared writes (see the swizzle). Rows at or past row_end are zero-filled (src-size 0, with
// the head's first row as an in-bounds dummy address), so no garbage, possibly NaN bits, ever
// reaches an MMA: P = 0 times a NaN in V would still poison the output row.
// ---------------------------------------------------------------------------------------------
template <class C, int ROWS>
__device__ __forceinline__ void load_tile(uint32_t s_tile, const typename C::T* g_head,
                                          int64_t row_stride, int row0, int row_end, int tid) {
  constexpr int kRowsPerPass = C::THREADS / C::CHUNKS;
  const int chunk = tid % C::CHUNKS;
  const int r = tid / C::CHUNKS;
  const int rows_left = row_end - row0 - r;  // pass i is in range iff i * kRowsPerPass < this
  const typename C::T* src = g_head + int64_t(row0 + r) * row_stride + chunk * 8;
  const int64_t pass_stride = int64_t(kRowsPerPass) * row_stride;
#pragma unroll
  for (int i = 0; i < ROWS / kRowsPerPass; ++i) {
    const bool valid = i * kRowsPerPass < rows_left;
    // With the defaults kRowsPerPass is a multiple of 8, so the swizzle term folds to a
    // constant and each pass is one immediate offset.
    cp_async_16(s_tile + swizzle<C::CHUNKS>(r + i * kRowsPerPass, chunk),
                valid ? src : g_head, valid);
    src += pass_stride;
  }
}

// ---------------------------------------------------------------------------------------------
// Per-lane ldmatrix addressing.
//
// Every operand fetch is one ldmatrix.x4 of a 16 x 16 block of a [rows][D] tile: lane L gives
// the address of row L%8 of 8x8 matrix i = L/8, and result register i comes from matrix i.
// mma wants each operand's registers in order (A: a0..a3; B: b0, b1 of one n-tile as an
// aligned pair), so the matrix order is picked per operand (g = lane/4, t = lane%4; layouts
// in mma_16816):
//   Q block (rows = queries, cols = head dim), plain load. Register i must be a_i =
//       (row g + 8*(i%2), cols 8*(i/2) + 2t, +1), so matrix i = (rows +8*(i%2), cols +8*(i/2)).
//   V block (rows = keys, cols = head dim), transposed load. P·V needs B[k][n] = V[k][n] with
//       k along V's rows; the transposed load gives lane (g, t) V[k0+2t..+1][n0+g] = b0 of the
//       d-tile n0..n0+7. So matrix i = (keys +8*(i%2), dims +8*(i/2)): registers 0, 1 are
//       b0, b1 of dims 0-7, registers 2, 3 of dims 8-15. The same order as Q: "rows first".
//   K block (rows = keys, cols = head dim), plain load. Q·Kᵀ needs B[k][n] = K[n][k], and a
//       plain load gives lane (g, t) K[n0+g][k0+2t..+1] = b0 of the n-tile of keys n0..n0+7.
//       So matrix i = (keys +8*(i/2), dims +8*(i%2)): registers 0, 1 are b0, b1 of keys 0-7,
//       registers 2, 3 of keys 8-15: "columns first".
//
// Swizzled address of block (r16, c2), i.e. rows 16*r16.., logical chunks 2*c2 and 2*c2+1:
// lane L reads row 16*r16 + 8*h_row + L%8 at logical chunk 2*c2 + h_col (h_row, h_col = the
// lane's 0/1 row and column halves). The other row terms are multiples of 8, so the row's
// swizzle term is L%8, and with c2 = 4a + j the physical chunk is
//     (8a + 2j + h_col) ^ (L%8) = 8a + ((2j) ^ x),   x = h_col ^ (L%8),
// i.e. byte offset 128a + ((32j) ^ 16x). Tiles start at multiples of 128 bytes and row
// offsets are multiples of 128, so the whole address is
//     ((tile + base) ^ 32j) + 16*r16*ROW_BYTES + 128a,   base = row_of_lane*ROW_BYTES + 16x.
// One register per operand family; for K and V `tile` includes the pipeline stage, so the XOR
// is redone per tile instead of keeping four precomputed offsets alive across the loop (those
// few registers are what the 255-register budget lacks).
// ---------------------------------------------------------------------------------------------
template <class C>
struct LaneAddr {
  uint32_t base;

  __device__ __forceinline__ LaneAddr(int lane, bool rows_first) {
    const int lo = (lane / 8) % 2, hi = lane / 16;  // matrix index i = 2*hi + lo
    const int h_row = rows_first ? lo : hi, h_col = rows_first ? hi : lo;
    base = uint32_t((lane % 8 + 8 * h_row) * C::ROW_BYTES + 16 * (h_col ^ (lane % 8)));
  }
  // s_base: shared address of dynamic smem; tile: byte offset of the tile from it.
  __device__ __forceinline__ uint32_t at(uint32_t s_base, uint32_t tile, int r16, int c2) const {
    return s_base + ((tile + base) ^ uint32_t(32 * (c2 % 4))) +
           uint32_t(r16 * 16 * C::ROW_BYTES + (c2 / 4) * 128);
  }
};

// ---------------------------------------------------------------------------------------------
// The per-warp state carried across key tiles: all of it lives in registers.
// ---------------------------------------------------------------------------------------------
template <class C>
struct WarpState {
  float o[C::MT][C::DT][4];  // unnormalised output, m16n8 C layout per (atom, d-tile)
  float m[C::MT][2];         // running row max in base-2 units (score*scale*log2 e), rows g, g+8
  float l[C::MT][2];         // this lane's partial row sum of exp2(s - m) (quad-reduced at the end)
  uint32_t q[C::Q_REGS ? C::KQ : 1][C::MT][4];  // Q A-fragments, when kept in registers
};

// S = Q·Kᵀ for the warp's MT x 16 rows and the BN keys of one tile.
template <class C>
__device__ __forceinline__ void qk_gemm(float (&s)[C::MT][C::NT][4], const WarpState<C>& st,
                                        uint32_t s_base, uint32_t q_tile, uint32_t k_tile,
                                        const LaneAddr<C>& rows_first,
                                        const LaneAddr<C>& cols_first) {
#pragma unroll
  for (int mt = 0; mt < C::MT; ++mt)
#pragma unroll
    for (int nt = 0; nt < C::NT; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i) s[mt][nt][i] = 0.f;

#pragma unroll
  for (int kk = 0; kk < C::KQ; ++kk) {
    uint32_t a[C::MT][4];
#pragma unroll
    for (int mt = 0; mt < C::MT; ++mt) {
      if constexpr (C::Q_REGS) {
#pragma unroll
        for (int i = 0; i < 4; ++i) a[mt][i] = st.q[kk][mt][i];
      } else {
        ldmatrix_x4(a[mt], rows_first.at(s_base, q_tile, mt, kk));
      }
    }
#pragma unroll
    for (int np = 0; np < C::NT / 2; ++np) {  // pairs of 8-key n-tiles
      uint32_t b[4];
      ldmatrix_x4(b, cols_first.at(s_base, k_tile, np, kk));  // b0,b1 keys +0..7, then +8..15
#pragma unroll
      for (int mt = 0; mt < C::MT; ++mt) {
        mma_16816<typename C::T>(s[mt][2 * np], a[mt], b[0], b[1]);
        mma_16816<typename C::T>(s[mt][2 * np + 1], a[mt], b[2], b[3]);
      }
    }
  }
}

// Sets S to -inf where the key is past S_k or, if causal, after the query. Runs before the row
// max, so masked scores can never raise it. Element (mt, nt, i) of the C layout is row
// q_row0 + mt*16 + g + 8*(i/2), key n0 + nt*8 + 2t + i%2.
template <class C, bool CAUSAL>
__device__ __forceinline__ void apply_mask(float (&s)[C::MT][C::NT][4], int q_row0, int n0,
                                           int S_k, int lane) {
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int mt = 0; mt < C::MT; ++mt)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int q_idx = q_row0 + mt * 16 + g + 8 * h;
      // Keys [0, key_end) are visible to this row: one compare per element.
      const int key_end = CAUSAL ? min(q_idx + 1, S_k) : S_k;
#pragma unroll
      for (int nt = 0; nt < C::NT; ++nt)
#pragma unroll
        for (int e = 0; e < 2; ++e)
          if (n0 + nt * 8 + 2 * t + e >= key_end) s[mt][nt][2 * h + e] = -INFINITY;
    }
}

// Online softmax on one tile: update the running max, turn S into P = exp2(S*c - m), rescale
// the running sum and output by alpha = exp2(m_old - m_new), and round P to the MMA input type.
// A row's BN scores are spread over the 4 lanes of a quad (same g), so the max needs two
// xor-shuffles; the sum does not: each lane keeps a partial sum, and since all four lanes
// apply the same rescale factors, the partials are simply added once, in the epilogue.
//
// P is packed as soon as it is produced: p[mt][nt][h] holds the pair (row g + 8h, keys
// nt*8 + 2t, +1), i.e. accumulator registers c[2h], c[2h+1] of n-tile nt, in one register.
//
// Rescaling O costs one FMUL per accumulator, D/2 * MT per lane: for d=128 with 32-key tiles
// that is as many instructions as the tile has MMAs. When no row of the warp raised its max,
// every alpha is exactly 1, so the warp votes and skips the multiply: an exact shortcut taken
// more often as the running maxima settle, and a warp-uniform branch. Keeping the rescale out
// of the P·V overlap also lowers the register peak.
template <class C>
__device__ __forceinline__ void online_softmax(const float (&s)[C::MT][C::NT][4],
                                               uint32_t (&p)[C::MT][C::NT][2], WarpState<C>& st,
                                               float scale_log2) {
  float alpha[C::MT][2];
  bool rescale = false;
#pragma unroll
  for (int mt = 0; mt < C::MT; ++mt)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float mx = -INFINITY;
#pragma unroll
      for (int nt = 0; nt < C::NT; ++nt)
        mx = fmaxf(mx, fmaxf(s[mt][nt][2 * h], s[mt][nt][2 * h + 1]));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));

      const float m_old = st.m[mt][h];
      const float m_new = fmaxf(m_old, mx * scale_log2);  // scale > 0: max commutes with it
      // A row with no visible key yet has m_new = -inf; subtracting 0 instead keeps
      // (-inf) - (-inf) = NaN out (p = 0 and alpha = 0 then). Key tiles run from 0 upwards
      // and key 0 is visible to every row, so this is a guard, not a path taken.
      const float m_use = m_new == -INFINITY ? 0.f : m_new;
      alpha[mt][h] = fast_exp2f(m_old - m_use);
      rescale |= m_new != m_old;
      st.m[mt][h] = m_new;

      float sum = 0.f;
#pragma unroll
      for (int nt = 0; nt < C::NT; ++nt) {
        const float p0 = fast_exp2f(fmaf(s[mt][nt][2 * h], scale_log2, -m_use));
        const float p1 = fast_exp2f(fmaf(s[mt][nt][2 * h + 1], scale_log2, -m_use));
        sum += p0 + p1;
        p[mt][nt][h] = pack2<typename C::T>(p0, p1);
      }
      st.l[mt][h] = st.l[mt][h] * alpha[mt][h] + sum;
    }

  if (__any_sync(0xffffffffu, rescale)) {
#pragma unroll
    for (int mt = 0; mt < C::MT; ++mt)
#pragma unroll
      for (int dt = 0; dt < C::DT; ++dt)
#pragma unroll
        for (int i = 0; i < 4; ++i) st.o[mt][dt][i] *= alpha[mt][i / 2];
  }
}

// O += P·V, with P straight from registers. For keys 16kk..16kk+15 the m16n8k16 A fragment is
//   a0 = (g, 2t..+1)  a1 = (g+8, 2t..+1)  a2 = (g, 8+2t..+1)  a3 = (g+8, 8+2t..+1)
// and the m16n8 accumulator of n-tile 2kk holds (g, 2t..+1) in c0,c1 and (g+8, 2t..+1) in
// c2,c3; n-tile 2kk+1 holds the same pairs 8 keys further. So the C layout of two adjacent
// n-tiles IS the A layout: a = {p[2kk][0], p[2kk][1], p[2kk+1][0], p[2kk+1][1]}, no shuffles.
template <class C>
__device__ __forceinline__ void pv_gemm(const uint32_t (&p)[C::MT][C::NT][2], WarpState<C>& st,
                                        uint32_t s_base, uint32_t v_tile,
                                        const LaneAddr<C>& rows_first) {
#pragma unroll
  for (int kk = 0; kk < C::KP; ++kk) {
#pragma unroll
    for (int dp = 0; dp < C::DT / 2; ++dp) {  // pairs of 8-wide d-tiles
      uint32_t b[4];
      ldmatrix_x4_trans(b, rows_first.at(s_base, v_tile, kk, dp));  // b0,b1 dims +0..7, +8..15
#pragma unroll
      for (int mt = 0; mt < C::MT; ++mt) {
        const uint32_t a[4] = {p[mt][2 * kk][0], p[mt][2 * kk][1], p[mt][2 * kk + 1][0],
                               p[mt][2 * kk + 1][1]};
        mma_16816<typename C::T>(st.o[mt][2 * dp], a, b[0], b[1]);
        mma_16816<typename C::T>(st.o[mt][2 * dp + 1], a, b[2], b[3]);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The kernel.
// ---------------------------------------------------------------------------------------------
template <class C, bool CAUSAL>
__global__ void __launch_bounds__(C::THREADS, MIN_BLOCKS_PER_SM)
attn_fwd_mma_kernel(const AttnParams p) {
  using T = typename C::T;
  extern __shared__ __align__(128) unsigned char smem[];
  const uint32_t s_base = uint32_t(__cvta_generic_to_shared(smem));

  const int tid = threadIdx.x;
  // Broadcast from lane 0 so the compiler knows the warp index (and everything derived from it)
  // is warp-uniform and can keep it in uniform registers.
  const int warp = __shfl_sync(0xffffffffu, tid / 32, 0);
  const int lane = tid % 32;
  const int warp_row0 = warp * C::WM;  // first CTA-local query row of this warp

  // CTA -> (batch*head, query tile). The host guarantees B * H * num_m_tiles < 2^31, so
  // 32-bit unsigned division is exact.
  //   Causal: (b, h) varies fastest and query tiles run last to first, so the longest CTAs
  //     (last query tiles, the most keys) of every head start first and the grid's tail is
  //     made of the shortest ones, instead of a long tile starting last.
  //   Non-causal: every CTA has the same work, so optimise for L2 instead: query tiles vary
  //     fastest, and the CTAs resident at any time cover a few heads whose K/V stay in L2.
  const unsigned bh_count = unsigned(p.B) * unsigned(p.H);
  const unsigned num_m_tiles = unsigned(attn::ceil_div(p.S_q, C::BM));
  int bh, m_tile;
  if (CAUSAL) {
    bh = int(blockIdx.x % bh_count);
    m_tile = int(num_m_tiles - 1 - blockIdx.x / bh_count);
  } else {
    m_tile = int(blockIdx.x % num_m_tiles);
    bh = int(blockIdx.x / num_m_tiles);
  }
  const int b = bh / p.H, h = bh % p.H;
  const int m0 = m_tile * C::BM;

  const T* q_g = static_cast<const T*>(p.q) + attn::row_offset(p.q_stride_b, p.q_stride_h, 0, b, h, 0);
  const T* k_g = static_cast<const T*>(p.k) + attn::row_offset(p.k_stride_b, p.k_stride_h, 0, b, h, 0);
  const T* v_g = static_cast<const T*>(p.v) + attn::row_offset(p.v_stride_b, p.v_stride_h, 0, b, h, 0);
  T* o_g = static_cast<T*>(p.o) + attn::row_offset(p.o_stride_b, p.o_stride_h, 0, b, h, 0);

  // Key tiles. Causal: the rows of this CTA are < min(S_q, m0 + BM), so later keys are never
  // visible and their tiles are never loaded. Tiles [0, n_full) need no mask at all: every key
  // is < S_k and, if causal, <= the CTA's first row m0. Only the tail tiles (ragged S_k, or
  // straddling the diagonal) pay for the element mask.
  const int n_end = CAUSAL ? min(p.S_k, min(p.S_q, m0 + C::BM)) : p.S_k;
  const int n_tiles = attn::ceil_div(n_end, C::BN);
  int n_full = p.S_k / C::BN;
  if (CAUSAL) n_full = min(n_full, (m0 + 1) / C::BN);

  // ---- Prologue: Q and key tile 0 in one cp.async group. ------------------------------------
  load_tile<C, C::BM>(s_base + C::Q_OFF, q_g, p.q_stride_s, m0, p.S_q, tid);
  load_tile<C, C::BN>(s_base + C::K_OFF, k_g, p.k_stride_s, 0, p.S_k, tid);
  load_tile<C, C::BN>(s_base + C::V_OFF, v_g, p.v_stride_s, 0, p.S_k, tid);
  cp_async_commit();

  const LaneAddr<C> rows_first(lane, true);   // Q and V blocks
  const LaneAddr<C> cols_first(lane, false);  // K blocks
  const uint32_t q_tile = C::Q_OFF + warp_row0 * C::ROW_BYTES;  // this warp's Q rows

  WarpState<C> st;
#pragma unroll
  for (int mt = 0; mt < C::MT; ++mt) {
#pragma unroll
    for (int dt = 0; dt < C::DT; ++dt)
#pragma unroll
      for (int i = 0; i < 4; ++i) st.o[mt][dt][i] = 0.f;
#pragma unroll
    for (int h2 = 0; h2 < 2; ++h2) {
      st.m[mt][h2] = -INFINITY;
      st.l[mt][h2] = 0.f;
    }
  }
  if constexpr (C::Q_REGS) {
    cp_async_wait<0>();
    __syncthreads();  // Q rows were copied by all threads
#pragma unroll
    for (int kk = 0; kk < C::KQ; ++kk)
#pragma unroll
      for (int mt = 0; mt < C::MT; ++mt)
        ldmatrix_x4(st.q[kk][mt], rows_first.at(s_base, q_tile, mt, kk));
  }

  const float scale_log2 = p.softmax_scale * attn::kLog2e;

  // ---- The key loop. ------------------------------------------------------------------------
  // The single barrier per tile does double duty: it publishes tile kt (every thread has
  // waited for its own copies) and it proves every warp has finished tile kt-1, whose stage
  // the copy of tile kt+1, issued right after it, overwrites.
#pragma unroll 1
  for (int kt = 0; kt < n_tiles; ++kt) {
    cp_async_wait<0>();
    __syncthreads();
    if (kt + 1 < n_tiles) {
      const uint32_t next = uint32_t((kt + 1) % 2) * C::KV_BYTES;
      load_tile<C, C::BN>(s_base + C::K_OFF + next, k_g, p.k_stride_s, (kt + 1) * C::BN, p.S_k, tid);
      load_tile<C, C::BN>(s_base + C::V_OFF + next, v_g, p.v_stride_s, (kt + 1) * C::BN, p.S_k, tid);
      cp_async_commit();
    }
    const uint32_t stage = uint32_t(kt % 2) * C::KV_BYTES;

    float s[C::MT][C::NT][4];
    qk_gemm<C>(s, st, s_base, q_tile, C::K_OFF + stage, rows_first, cols_first);
    if (kt >= n_full) apply_mask<C, CAUSAL>(s, m0 + warp_row0, kt * C::BN, p.S_k, lane);
    uint32_t p_frag[C::MT][C::NT][2];
    online_softmax<C>(s, p_frag, st, scale_log2);
    pv_gemm<C>(p_frag, st, s_base, C::V_OFF + stage, rows_first);
  }

  // ---- Epilogue: O /= l, LSE, stage O through the warp's own Q rows, coalesced store. -------
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int mt = 0; mt < C::MT; ++mt)
#pragma unroll
    for (int h2 = 0; h2 < 2; ++h2) {
      float l = st.l[mt][h2];
      l += __shfl_xor_sync(0xffffffffu, l, 1);
      l += __shfl_xor_sync(0xffffffffu, l, 2);
      const float inv_l = 1.f / l;  // l >= 1: the row max itself contributes exp2(0)
#pragma unroll
      for (int dt = 0; dt < C::DT; ++dt) {
        st.o[mt][dt][2 * h2] *= inv_l;
        st.o[mt][dt][2 * h2 + 1] *= inv_l;
      }
      const int q_idx = m0 + warp_row0 + mt * 16 + g + 8 * h2;
      // Natural-log LSE of the scaled scores: m and log2(l) are base 2, so multiply by ln 2.
      if (p.lse != nullptr && t == 0 && q_idx < p.S_q)
        p.lse[bh * int64_t(p.S_q) + q_idx] = (st.m[mt][h2] + log2f(l)) * kLn2;
    }

  // The staging rows are this warp's own Q rows, which only this warp ever reads after the
  // prologue, so warp-level ordering suffices: the barrier orders the warp's last ldmatrix of
  // Q before any lane overwrites those rows.
  __syncwarp();
  // Lane (g, t) holds the pair (row g [+8], dims dt*8 + 2t, +1): 4 bytes at byte 4t of chunk
  // dt. With the swizzle, the 8 rows of one store hit 8 distinct 4-bank groups.
#pragma unroll
  for (int mt = 0; mt < C::MT; ++mt)
#pragma unroll
    for (int h2 = 0; h2 < 2; ++h2) {
      const int row = warp_row0 + mt * 16 + g + 8 * h2;
#pragma unroll
      for (int dt = 0; dt < C::DT; ++dt)
        *reinterpret_cast<uint32_t*>(smem + C::Q_OFF + swizzle<C::CHUNKS>(row, dt) + 4 * t) =
            pack2<T>(st.o[mt][dt][2 * h2], st.o[mt][dt][2 * h2 + 1]);
    }
  __syncwarp();
  // 16 bytes per lane; consecutive lanes take consecutive chunks of a row (coalesced stores,
  // conflict-free shared reads: 8 lanes = 8 chunks of one row = one permutation of 8 slots).
#pragma unroll
  for (int i = 0; i < C::WM * C::CHUNKS / 32; ++i) {
    const int idx = lane + 32 * i;
    const int row = warp_row0 + idx / C::CHUNKS, c = idx % C::CHUNKS;
    const int q_idx = m0 + row;
    if (q_idx < p.S_q)
      *reinterpret_cast<uint4*>(o_g + int64_t(q_idx) * p.o_stride_s + c * 8) =
          *reinterpret_cast<const uint4*>(smem + C::Q_OFF + swizzle<C::CHUNKS>(row, c));
  }
}

template <class C, bool CAUSAL>
cudaError_t launch(const AttnParams& p, cudaStream_t stream) {
  auto kernel = attn_fwd_mma_kernel<C, CAUSAL>;
  constexpr int smem = C::SMEM_BYTES;
  if (smem > 48 * 1024) {
    const cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (e != cudaSuccess) return e;
  }
  // One flat grid dimension (limit 2^31 - 1) so no single B, H or S_q hits the 65535 limit
  // of gridDim.y/z.
  const int64_t blocks = int64_t(p.B) * p.H * attn::ceil_div(p.S_q, C::BM);
  if (blocks > INT32_MAX) return cudaErrorInvalidValue;
  kernel<<<unsigned(blocks), C::THREADS, smem, stream>>>(p);
  return cudaGetLastError();
}

template <typename T, int D>
cudaError_t dispatch_causal(const AttnParams& p, cudaStream_t stream) {
  using C = typename ConfigFor<T, D>::type;
  return p.causal ? launch<C, true>(p, stream) : launch<C, false>(p, stream);
}


}  // namespace

ATTN_DEFINE_ABI_VERSION

ATTN_EXPORT int attn_smem_bytes(int head_dim, int dtype) {
  if (dtype != ATTN_FP16 && dtype != ATTN_BF16) return 0;
  // The layout does not depend on which 16-bit type it holds.
  switch (head_dim) {
    case 64: return ConfigFor<__half, 64>::type::SMEM_BYTES;
    case 128: return ConfigFor<__half, 128>::type::SMEM_BYTES;
    default: return 0;
  }
}

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!attn::params_are_valid(p)) return cudaErrorInvalidValue;
  if (p->D != 64 && p->D != 128) return cudaErrorInvalidValue;
  // cp.async and the epilogue move 16-byte chunks, so every row must start 16-byte aligned.
  if (!attn::rows_are_16b_aligned(p)) return cudaErrorInvalidValue;

  cudaError_t e;
  if (p->dtype == ATTN_FP16)
    e = p->D == 64 ? dispatch_causal<__half, 64>(*p, stream) : dispatch_causal<__half, 128>(*p, stream);
  else
    e = p->D == 64 ? dispatch_causal<__nv_bfloat16, 64>(*p, stream)
                   : dispatch_causal<__nv_bfloat16, 128>(*p, stream);
  return int(e);
}
