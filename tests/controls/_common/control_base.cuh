// The one CORRECT attention forward every negative control is built from. A control #defines a
// few of the DEFECT HOOKS below, then #includes this file; with no hook defined this file is a
// complete, correct kernel.cu (fp16/bf16, D = 64/128, any B/H/S_q/S_k, causal top-left as torch's
// is_causal, lse when non-null, any batch/head/row strides with unit D stride, 16-byte aligned rows).
//
// Method. A block owns kBlockM = 16 query rows (4 warps x 4 rows). Q is staged once in shared memory
// as fp32, pre-multiplied by scale * log2(e) so scores come out in log2 units. K and V stream
// through shared memory in tiles of 32 keys, staged cooperatively by the whole block. For Q.K^T
// lane j owns key j of the tile; for P.V a lane owns output columns lane + 32c and takes each p_j
// from lane j by shuffle. Online softmax in fp32 (base 2), normalised once at the end.
//
// Defect hooks (defaults in parentheses are the correct behaviour):
//   CONTROL_ACC_T                       storage type of the P.V accumulator (float)
//   CONTROL_SCALE(p)                    the softmax scale used ((p).softmax_scale)
//   CONTROL_IS_CAUSAL(p)                whether the causal mask applies ((p).causal != 0)
//   CONTROL_KEY_LIMIT(p)                keys [0, limit) are attended to ((p).S_k)
//   CONTROL_TILE_BARRIER()              barrier before a K/V tile is overwritten (__syncthreads())
//   CONTROL_LOAD_ADDR(ptr)              address of each 16-byte global load of q/k/v ((ptr))
//   CONTROL_SKIP_BLOCK(p, b, h, q_head) true: the block returns at once, writing nothing (false)
//   CONTROL_BLOCK_PROLOGUE(p, k_head)   a statement run by every thread first (nothing)
//   CONTROL_OUT_VALUE(p, row, x)        the value stored for output element x of row `row` ((x))
//   CONTROL_P_VALUE(x)                  the softmax weight as it enters P.V; the row sum keeps the
//                                       unrounded one ((x))
//   CONTROL_ROW_EPILOGUE(p, q_head, row, lane)  a statement after a row is written (nothing)
//   CONTROL_MIN_BLOCKS                  __launch_bounds__ minimum blocks per SM (1)
//   CONTROL_SMEM_BYTES(D)               dynamic shared memory requested and reported (the layout's)
//   CONTROL_TO_FLOAT(e)                 an input element as fp32 (attn::to_float(e))
//   CONTROL_ROW_OFFSET(sb, sh, ss, b, h, s)  element offset of a row (attn::row_offset: 64-bit)
//   CONTROL_O_STRIDES(p, sb, sh, ss)    statement setting o's strides (from p: sb = p.o_stride_b ...)
//   CONTROL_KEY_VISIBLE(visible, k_row) whether a key takes part; k_row: its D fp32 values in shared
//                                       memory ((visible): the mask alone decides)
//   CONTROL_LOAD_LIMIT(p, limit, room)  K/V rows below this are loaded, the rest zero-filled;
//                                       room: rows the view's head stride leaves (limit)
//   CONTROL_STORE_LIMIT(p, room)        output rows below this are stored; room as above (p.S_q)
//   CONTROL_MAX_INIT                    the running max before any key (-INFINITY)
//   CONTROL_RUNNING_MAX(m_old, tile)    the new running max (fmaxf(m_old, tile))
//   CONTROL_LSUM_STORE(p, x)            the row-sum partial as stored after each update ((x))
//   CONTROL_LAUNCH_PDL                  1: launched with programmatic stream serialisation, so it
//                                       may start before the previous kernel on the stream ends;
//                                       this kernel never executes griddepcontrol.wait (0)
//   CONTROL_CUSTOM_ENTRY                defined: the control writes attn_fwd itself, using
//                                       control::supported() and control::launch()
// q_head / k_head are `const T*` at row 0 of the block's (b, h); T is __half or __nv_bfloat16.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include "attn_common.cuh"

#ifndef CONTROL_ACC_T
#define CONTROL_ACC_T float
#endif
#ifndef CONTROL_SCALE
#define CONTROL_SCALE(p) ((p).softmax_scale)
#endif
#ifndef CONTROL_IS_CAUSAL
#define CONTROL_IS_CAUSAL(p) ((p).causal != 0)
#endif
#ifndef CONTROL_KEY_LIMIT
#define CONTROL_KEY_LIMIT(p) ((p).S_k)
#endif
#ifndef CONTROL_KEY_VISIBLE
#define CONTROL_KEY_VISIBLE(visible, k_row) (visible)
#endif
#ifndef CONTROL_TILE_BARRIER
#define CONTROL_TILE_BARRIER() __syncthreads()
#endif
#ifndef CONTROL_LOAD_ADDR
#define CONTROL_LOAD_ADDR(ptr) (ptr)
#endif
#ifndef CONTROL_SKIP_BLOCK
#define CONTROL_SKIP_BLOCK(p, b, h, q_head) false
#endif
#ifndef CONTROL_BLOCK_PROLOGUE
#define CONTROL_BLOCK_PROLOGUE(p, k_head) ((void)0)
#endif
#ifndef CONTROL_OUT_VALUE
#define CONTROL_OUT_VALUE(p, row, x) (x)
#endif
#ifndef CONTROL_ROW_EPILOGUE
#define CONTROL_ROW_EPILOGUE(p, q_head, row, lane) ((void)0)
#endif
#ifndef CONTROL_MIN_BLOCKS
#define CONTROL_MIN_BLOCKS 1
#endif
#ifndef CONTROL_P_VALUE
#define CONTROL_P_VALUE(x) (x)
#endif
#ifndef CONTROL_TO_FLOAT
#define CONTROL_TO_FLOAT(e) attn::to_float(e)
#endif
#ifndef CONTROL_ROW_OFFSET
#define CONTROL_ROW_OFFSET(sb, sh, ss, b, h, s) attn::row_offset(sb, sh, ss, b, h, s)
#endif
#ifndef CONTROL_O_STRIDES
#define CONTROL_O_STRIDES(p, sb, sh, ss) (sb = (p).o_stride_b, sh = (p).o_stride_h, ss = (p).o_stride_s)
#endif
#ifndef CONTROL_LOAD_LIMIT
#define CONTROL_LOAD_LIMIT(p, limit, room) (limit)
#endif
#ifndef CONTROL_STORE_LIMIT
#define CONTROL_STORE_LIMIT(p, room) ((p).S_q)
#endif
#ifndef CONTROL_MAX_INIT
#define CONTROL_MAX_INIT (-INFINITY)
#endif
#ifndef CONTROL_RUNNING_MAX
#define CONTROL_RUNNING_MAX(m_old, tile) fmaxf(m_old, tile)
#endif
#ifndef CONTROL_LSUM_STORE
#define CONTROL_LSUM_STORE(p, x) (x)
#endif
#ifndef CONTROL_SMEM_BYTES
#define CONTROL_SMEM_BYTES(D) (::control::Layout<D>::bytes)
#endif
#ifndef CONTROL_LAUNCH_PDL
#define CONTROL_LAUNCH_PDL 0
#endif

namespace control {

constexpr int kWarp = 32;
constexpr int kWarps = 4;
constexpr int kRowsPerWarp = 4;
constexpr int kBlockM = kWarps * kRowsPerWarp;  // query rows per block
constexpr int kTileN = kWarp;                   // keys per K/V tile: one per lane in Q.K^T
constexpr int kThreads = kWarps * kWarp;
constexpr float kLn2 = 0.6931471805599453f;

// Shared memory in floats: the block's Q rows, one K tile, one V tile. K rows are padded by one
// float so that lane j reading k[j][d] lands in bank (j + d) % 32.
template <int D> struct Layout {
  static constexpr int kRowK = D + 1;
  static constexpr int q = 0;
  static constexpr int k = q + kBlockM * D;
  static constexpr int v = k + kTileN * kRowK;
  static constexpr int bytes = (v + kTileN * D) * int(sizeof(float));
};

__device__ __forceinline__ float warp_max(float x) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, o));
  return x;
}

__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

// The accumulator is read and written through these, so CONTROL_ACC_T only changes storage:
// each update is computed in fp32 and rounded to the accumulator type.
template <typename A> __device__ __forceinline__ float acc_get(A x) { return static_cast<float>(x); }
template <typename A> __device__ __forceinline__ A acc_put(float x) { return static_cast<A>(x); }

// Copies rows [row0, row0 + n_rows) of one head into shared memory as fp32 times `mul`, one
// 16-byte vector (8 elements) per thread per step. Rows at or past `limit` become zeros, so a
// ragged tail never carries garbage.
template <typename T, int D>
__device__ void stage_rows(float* dst, int dst_stride, const T* head, int64_t row_stride, int row0,
                           int n_rows, int limit, float mul) {
  constexpr int kVec = 8, kVecsPerRow = D / kVec;
  for (int i = threadIdx.x; i < n_rows * kVecsPerRow; i += kThreads) {
    const int r = i / kVecsPerRow, c = (i % kVecsPerRow) * kVec;
    float x[kVec];
    if (row0 + r < limit) {
      const uint4 raw = *reinterpret_cast<const uint4*>(CONTROL_LOAD_ADDR(head + (row0 + r) * row_stride + c));
      const T* e = reinterpret_cast<const T*>(&raw);
#pragma unroll
      for (int j = 0; j < kVec; ++j) x[j] = CONTROL_TO_FLOAT(e[j]) * mul;
    } else {
#pragma unroll
      for (int j = 0; j < kVec; ++j) x[j] = 0.f;
    }
#pragma unroll
    for (int j = 0; j < kVec; ++j) dst[r * dst_stride + c + j] = x[j];
  }
}

template <typename T, int D>
__global__ void __launch_bounds__(kThreads, CONTROL_MIN_BLOCKS) attention(const AttnParams p, const int32_t lse_rows) {
  using L = Layout<D>;
  constexpr int kCols = D / kWarp;  // output columns per lane
  extern __shared__ float smem[];
  float* q_s = smem + L::q;
  float* k_s = smem + L::k;
  float* v_s = smem + L::v;

  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const int n_m = attn::ceil_div(p.S_q, kBlockM);  // flat grid: B or H may exceed 65535
  const int m0 = int(blockIdx.x % n_m) * kBlockM;
  const int bh = int(blockIdx.x / n_m), b = bh / p.H, h = bh % p.H;
  int64_t o_sb, o_sh, o_ss;
  CONTROL_O_STRIDES(p, o_sb, o_sh, o_ss);
  const T* q_head = static_cast<const T*>(p.q) + CONTROL_ROW_OFFSET(p.q_stride_b, p.q_stride_h, 0, b, h, 0);
  const T* k_head = static_cast<const T*>(p.k) + CONTROL_ROW_OFFSET(p.k_stride_b, p.k_stride_h, 0, b, h, 0);
  const T* v_head = static_cast<const T*>(p.v) + CONTROL_ROW_OFFSET(p.v_stride_b, p.v_stride_h, 0, b, h, 0);
  T* o_head = static_cast<T*>(p.o) + CONTROL_ROW_OFFSET(o_sb, o_sh, 0, b, h, 0);
  // Rows the views' head strides leave before the next head starts (0 when B and H are 1).
  const int64_t kv_rows = p.k_stride_s > 0 ? p.k_stride_h / p.k_stride_s : p.S_k;
  const int64_t o_rows = o_ss > 0 ? o_sh / o_ss : p.S_q;
  const int kv_room = kv_rows < INT32_MAX ? int(kv_rows) : INT32_MAX;
  const int o_room = o_rows < INT32_MAX ? int(o_rows) : INT32_MAX;
  (void)kv_room, (void)o_room;  // used only by some controls' hooks

  if (CONTROL_SKIP_BLOCK(p, b, h, q_head)) return;
  CONTROL_BLOCK_PROLOGUE(p, k_head);

  const bool causal = CONTROL_IS_CAUSAL(p);
  const int n_keys = CONTROL_KEY_LIMIT(p);
  // Causal (top-left): row i sees keys j <= i, so no row of this block sees a key past its last row.
  const int key_end = causal ? min(n_keys, m0 + kBlockM) : n_keys;

  // Scores in log2 units: s2 = q.k * scale * log2(e), so exp2(s2 - m2) is the softmax weight.
  stage_rows<T, D>(q_s, D, q_head, p.q_stride_s, m0, kBlockM, p.S_q, CONTROL_SCALE(p) * attn::kLog2e);

  const int wrow = warp * kRowsPerWarp;  // this warp's first row within the block
  float m[kRowsPerWarp];                 // running max of s2 (-inf until a key was visible)
  float l_part[kRowsPerWarp];            // this lane's share of the running sum of weights
  CONTROL_ACC_T acc[kRowsPerWarp][kCols];
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
    m[r] = CONTROL_MAX_INIT;
    l_part[r] = 0.f;
#pragma unroll
    for (int c = 0; c < kCols; ++c) acc[r][c] = acc_put<CONTROL_ACC_T>(0.f);
  }

  for (int n0 = 0; n0 < key_end; n0 += kTileN) {
    if (n0 > 0) CONTROL_TILE_BARRIER();  // every warp is done with the previous tile
    const int load_limit = CONTROL_LOAD_LIMIT(p, n_keys, kv_room);
    stage_rows<T, D>(k_s, L::kRowK, k_head, p.k_stride_s, n0, kTileN, load_limit, 1.f);
    stage_rows<T, D>(v_s, D, v_head, p.v_stride_s, n0, kTileN, load_limit, 1.f);
    __syncthreads();  // the tile (and, on the first pass, Q) is complete for every warp

    // S = Q K^T for this tile; lane owns key n0 + lane.
    float s[kRowsPerWarp];
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) s[r] = 0.f;
    const float* k_row = k_s + lane * L::kRowK;
#pragma unroll 4
    for (int d = 0; d < D; d += 4) {
      const float k0 = k_row[d], k1 = k_row[d + 1], k2 = k_row[d + 2], k3 = k_row[d + 3];
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r) {
        const float4 qv = *reinterpret_cast<const float4*>(q_s + (wrow + r) * D + d);
        s[r] = fmaf(qv.w, k3, fmaf(qv.z, k2, fmaf(qv.y, k1, fmaf(qv.x, k0, s[r]))));
      }
    }

    // Online softmax: mask, new max, rescale what was accumulated so far.
    const int key = n0 + lane;
    float pr[kRowsPerWarp];
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) {
      const int row = m0 + wrow + r;
      const bool visible = CONTROL_KEY_VISIBLE(key < n_keys && (!causal || key <= row), k_row);
      const float sr = visible ? s[r] : -INFINITY;
      const float m_new = CONTROL_RUNNING_MAX(m[r], warp_max(sr));
      // While no key of the row has been visible m_new is -inf: subtract 0 instead, so the
      // weights and the rescale factor come out 0 rather than NaN (-inf - -inf).
      const float m_ref = m_new == -INFINITY ? 0.f : m_new;
      const float alpha = exp2f(m[r] - m_ref);
      pr[r] = exp2f(sr - m_ref);
      l_part[r] = CONTROL_LSUM_STORE(p, l_part[r] * alpha + pr[r]);
      m[r] = m_new;
#pragma unroll
      for (int c = 0; c < kCols; ++c) acc[r][c] = acc_put<CONTROL_ACC_T>(acc_get(acc[r][c]) * alpha);
    }

    // O += P V; p_j comes from lane j.
#pragma unroll 4
    for (int j = 0; j < kTileN; ++j) {
      float vj[kCols];
#pragma unroll
      for (int c = 0; c < kCols; ++c) vj[c] = v_s[j * D + c * kWarp + lane];
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r) {
        const float pj = __shfl_sync(0xffffffffu, pr[r], j);
#pragma unroll
        for (int c = 0; c < kCols; ++c)
          acc[r][c] = acc_put<CONTROL_ACC_T>(fmaf(CONTROL_P_VALUE(pj), vj[c], acc_get(acc[r][c])));
      }
    }
  }

#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
    const int row = m0 + wrow + r;
    const float l = warp_sum(l_part[r]);
    if (row >= CONTROL_STORE_LIMIT(p, o_room)) continue;  // the same for the whole warp
    const float inv_l = 1.f / l;
    T* o_row = o_head + row * o_ss;
#pragma unroll
    for (int c = 0; c < kCols; ++c)
      o_row[c * kWarp + lane] = attn::from_float<T>(CONTROL_OUT_VALUE(p, row, acc_get(acc[r][c]) * inv_l));
    // Natural-log log-sum-exp of the scaled scores: ln(2^m2 * l) = (m2 + log2 l) * ln 2.
    if (p.lse != nullptr && lane == 0 && row < p.S_q)
      p.lse[(int64_t(b) * p.H + h) * lse_rows + row] = (m[r] + log2f(l)) * kLn2;
    CONTROL_ROW_EPILOGUE(p, q_head, row, lane);
  }
}

template <typename T, int D> int launch_typed(const AttnParams& p, cudaStream_t stream, int32_t lse_rows) {
  const int smem = CONTROL_SMEM_BYTES(D);
  if (smem > 48 * 1024) {  // above the default limit a kernel must opt in
    const cudaError_t err =
        cudaFuncSetAttribute(attention<T, D>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (err != cudaSuccess) return err;
  }
  const int64_t blocks = int64_t(p.B) * p.H * attn::ceil_div(p.S_q, kBlockM);
  if (blocks > INT32_MAX) return cudaErrorInvalidValue;
#if CONTROL_LAUNCH_PDL
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(unsigned(blocks));
  cfg.blockDim = dim3(kThreads);
  cfg.dynamicSmemBytes = size_t(smem);
  cfg.stream = stream;
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, attention<T, D>, p, lse_rows);
#else
  attention<T, D><<<unsigned(blocks), kThreads, smem, stream>>>(p, lse_rows);
  return cudaGetLastError();
#endif
}

// Whether `stream` is being captured into a graph, for controls that misbehave only outside
// capture (where capture would fail or record their misbehaviour). When it cannot tell: true,
// so such a control takes its honest path.
inline bool capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
    cudaGetLastError();
    return true;
  }
  return status != cudaStreamCaptureStatusNone;
}

// Calls of one problem (sizes, dtype and mask) past which the "at scale" controls misbehave. The
// sanity gate runs every check at the timed workloads' sizes too, in about 40 calls per shape;
// the performance gate's warm-up and timed rounds make hundreds. Such a control stands for a
// kernel that changes its path once a problem has been called often (a plan tuned after a
// warm-up), which only the performance gate's own checks see.
constexpr int64_t kWarmCalls = 100;

// Whether this process has called this problem more than kWarmCalls times, this call included
// (it counts the call).
inline bool warmed(const AttnParams& p) {
  static std::mutex lock;
  static std::map<std::array<int64_t, 7>, int64_t> calls;
  const std::lock_guard<std::mutex> hold(lock);
  return ++calls[{p.B, p.H, p.S_q, p.S_k, p.D, p.dtype, p.causal}] > kWarmCalls;
}

// What this kernel supports: valid parameters, D 64 or 128, and every row 16-byte aligned (the
// staging loads are 16-byte vectors).
inline bool supported(const AttnParams* p) {
  return attn::params_are_valid(p) && (p->D == 64 || p->D == 128) && attn::rows_are_16b_aligned(p);
}

// Launches on `stream`; the parameters must be supported(). lse_rows: the rows of one head in
// lse's layout (p.S_q, as the ABI lays lse out; 0 means that).
inline int launch(const AttnParams& p, cudaStream_t stream, int32_t lse_rows = 0) {
  const bool fp16 = p.dtype == ATTN_FP16;
  const int32_t rows = lse_rows ? lse_rows : p.S_q;
  if (p.D == 64)
    return fp16 ? launch_typed<__half, 64>(p, stream, rows) : launch_typed<__nv_bfloat16, 64>(p, stream, rows);
  return fp16 ? launch_typed<__half, 128>(p, stream, rows) : launch_typed<__nv_bfloat16, 128>(p, stream, rows);
}

}  // namespace control

ATTN_DEFINE_ABI_VERSION

ATTN_EXPORT int attn_smem_bytes(int head_dim, int /*dtype*/) {
  return head_dim == 64 ? CONTROL_SMEM_BYTES(64) : head_dim == 128 ? CONTROL_SMEM_BYTES(128) : 0;
}

#ifndef CONTROL_CUSTOM_ENTRY
ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  return control::launch(*p, stream);
}
#endif
