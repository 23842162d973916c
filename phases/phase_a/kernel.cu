// phase_a: a plain, correct attention forward. No tensor cores: fp32 FMAs on CUDA cores.
//
// A block owns BLOCK_M = NUM_WARPS * ROWS_PER_WARP query rows; each warp owns ROWS_PER_WARP of
// them. K and V stream through shared memory in tiles of 32 keys, converted to fp32 once. For
// Q.K^T a lane owns one key of the tile (so the warp reduces nothing per key); for P.V a lane owns
// D/32 output columns and takes each p_j from lane j by shuffle. Online softmax in base 2 with
// the scale folded into Q, normalisation once at the end.
//
// Tunables (compile-time, set from gate.yaml):
//   NUM_WARPS      warps per block                 (default 4)
//   ROWS_PER_WARP  query rows each warp owns       (default 8)
#include <cfloat>
#include "attn_common.cuh"

#ifndef NUM_WARPS
#define NUM_WARPS 4
#endif
#ifndef ROWS_PER_WARP
#define ROWS_PER_WARP 8
#endif

namespace {

constexpr int kWarp = 32;
constexpr int kTileN = kWarp;  // one key per lane in Q.K^T
constexpr int kBlockM = NUM_WARPS * ROWS_PER_WARP;
constexpr int kThreads = NUM_WARPS * kWarp;

// Shared-memory layout in floats. K rows are padded by one word so that lane j reading
// k[j][d] lands in bank (j + d) % 32: no conflicts in the Q.K^T loop.
template <int D> struct Smem {
  static constexpr int kStride = D + 1;
  static constexpr int q = 0;
  static constexpr int k = q + kBlockM * D;
  static constexpr int v = k + kTileN * kStride;
  static constexpr int floats = v + kTileN * D;
  static constexpr int bytes = floats * int(sizeof(float));
};

__device__ __forceinline__ float warp_max(float x) {
  for (int o = 16; o > 0; o >>= 1) x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, o));
  return x;
}
__device__ __forceinline__ float warp_sum(float x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

// Loads rows [row0, row0 + n_rows) of one head into shared memory as fp32, 8 elements per
// thread per step; rows past `limit` become zeros so masked keys never carry garbage.
template <typename T, int D>
__device__ void load_rows(float* dst, int dst_stride, const T* src, int64_t src_stride,
                          int row0, int n_rows, int limit, float scale) {
  constexpr int kVec = 8;
  for (int i = threadIdx.x; i < n_rows * (D / kVec); i += kThreads) {
    const int r = i / (D / kVec), c = (i % (D / kVec)) * kVec;
    float x[kVec];
    if (row0 + r < limit) {
      const uint4 raw = *reinterpret_cast<const uint4*>(src + (row0 + r) * src_stride + c);
      const T* e = reinterpret_cast<const T*>(&raw);
#pragma unroll
      for (int j = 0; j < kVec; ++j) x[j] = attn::to_float(e[j]) * scale;
    } else {
#pragma unroll
      for (int j = 0; j < kVec; ++j) x[j] = 0.f;
    }
#pragma unroll
    for (int j = 0; j < kVec; ++j) dst[r * dst_stride + c + j] = x[j];
  }
}

template <typename T, int D>
__global__ void __launch_bounds__(kThreads) attn_fwd_scalar(const AttnParams p) {
  using L = Smem<D>;
  extern __shared__ float smem[];
  float* q_s = smem + L::q;
  float* k_s = smem + L::k;
  float* v_s = smem + L::v;

  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  // One flat grid dimension (up to 2^31 - 1 blocks), so B or H above gridDim.y/z's 65535 work.
  const int n_m = attn::ceil_div(p.S_q, kBlockM);
  const int m0 = int(blockIdx.x % n_m) * kBlockM;
  const int bh = int(blockIdx.x / n_m), b = bh / p.H, h = bh % p.H;
  const T* q = static_cast<const T*>(p.q) + attn::row_offset(p.q_stride_b, p.q_stride_h, 0, b, h, 0);
  const T* k = static_cast<const T*>(p.k) + attn::row_offset(p.k_stride_b, p.k_stride_h, 0, b, h, 0);
  const T* v = static_cast<const T*>(p.v) + attn::row_offset(p.v_stride_b, p.v_stride_h, 0, b, h, 0);
  T* o = static_cast<T*>(p.o) + attn::row_offset(p.o_stride_b, p.o_stride_h, 0, b, h, 0);

  // Scores are kept in log2 units: s2 = (q . k) * scale * log2(e).
  load_rows<T, D>(q_s, D, q, p.q_stride_s, m0, kBlockM, p.S_q, p.softmax_scale * attn::kLog2e);

  const int row_base = warp * ROWS_PER_WARP;
  float m_run[ROWS_PER_WARP], l_lane[ROWS_PER_WARP], acc[ROWS_PER_WARP][D / kWarp];
#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) {
    m_run[r] = -INFINITY;
    l_lane[r] = 0.f;
#pragma unroll
    for (int c = 0; c < D / kWarp; ++c) acc[r][c] = 0.f;
  }

  // Causal: no row of this block sees a key past its last row.
  const int n_keys = p.causal ? min(p.S_k, m0 + kBlockM) : p.S_k;
  for (int n0 = 0; n0 < n_keys; n0 += kTileN) {
    __syncthreads();  // the previous tile is fully consumed before it is overwritten
    load_rows<T, D>(k_s, L::kStride, k, p.k_stride_s, n0, kTileN, p.S_k, 1.f);
    load_rows<T, D>(v_s, D, v, p.v_stride_s, n0, kTileN, p.S_k, 1.f);
    __syncthreads();

    float s[ROWS_PER_WARP];
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) s[r] = 0.f;
    const float* k_row = k_s + lane * L::kStride;
#pragma unroll 4
    for (int d = 0; d < D; d += 4) {
      const float k0 = k_row[d], k1 = k_row[d + 1], k2 = k_row[d + 2], k3 = k_row[d + 3];
#pragma unroll
      for (int r = 0; r < ROWS_PER_WARP; ++r) {
        const float4 qv = *reinterpret_cast<const float4*>(q_s + (row_base + r) * D + d);
        s[r] = fmaf(qv.x, k0, fmaf(qv.y, k1, fmaf(qv.z, k2, fmaf(qv.w, k3, s[r]))));
      }
    }

    const int key = n0 + lane;
    float pr[ROWS_PER_WARP];
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) {
      const int row = m0 + row_base + r;
      const bool visible = key < p.S_k && (!p.causal || key <= row);
      const float sr = visible ? s[r] : -INFINITY;
      const float m_new = fmaxf(m_run[r], warp_max(sr));
      // A row with no visible key yet keeps m = -inf; use 0 so exp2 gives 0 and 1, not NaN.
      const float m_use = m_new == -INFINITY ? 0.f : m_new;
      const float alpha = exp2f(m_run[r] - m_use);
      pr[r] = exp2f(sr - m_use);
      l_lane[r] = l_lane[r] * alpha + pr[r];
      m_run[r] = m_new;
#pragma unroll
      for (int c = 0; c < D / kWarp; ++c) acc[r][c] *= alpha;
    }

#pragma unroll 4
    for (int j = 0; j < kTileN; ++j) {
      float vj[D / kWarp];
#pragma unroll
      for (int c = 0; c < D / kWarp; ++c) vj[c] = v_s[j * D + c * kWarp + lane];
#pragma unroll
      for (int r = 0; r < ROWS_PER_WARP; ++r) {
        const float pj = __shfl_sync(0xffffffffu, pr[r], j);
#pragma unroll
        for (int c = 0; c < D / kWarp; ++c) acc[r][c] = fmaf(pj, vj[c], acc[r][c]);
      }
    }
  }

#pragma unroll
  for (int r = 0; r < ROWS_PER_WARP; ++r) {
    const int row = m0 + row_base + r;
    const float l = warp_sum(l_lane[r]);
    if (row >= p.S_q) continue;
    const float inv_l = 1.f / l;
#pragma unroll
    for (int c = 0; c < D / kWarp; ++c)
      o[row * p.o_stride_s + c * kWarp + lane] = attn::from_float<T>(acc[r][c] * inv_l);
    if (p.lse != nullptr && lane == 0)
      p.lse[(int64_t(b) * p.H + h) * p.S_q + row] = (m_run[r] + log2f(l)) * 0.6931471805599453f;
  }
}

template <typename T, int D> int launch(const AttnParams& p, cudaStream_t stream) {
  auto kernel = attn_fwd_scalar<T, D>;
  constexpr int smem = Smem<D>::bytes;
  cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  if (err != cudaSuccess) return err;
  const int64_t blocks = int64_t(p.B) * p.H * attn::ceil_div(p.S_q, kBlockM);
  if (blocks > INT32_MAX) return cudaErrorInvalidValue;
  kernel<<<unsigned(blocks), kThreads, smem, stream>>>(p);
  return cudaGetLastError();
}

}  // namespace

ATTN_DEFINE_ABI_VERSION

ATTN_EXPORT int attn_smem_bytes(int head_dim, int /*dtype*/) {
  return head_dim == 64 ? Smem<64>::bytes : head_dim == 128 ? Smem<128>::bytes : 0;
}

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!attn::params_are_valid(p) || !attn::rows_are_16b_aligned(p)) return cudaErrorInvalidValue;
  const bool half = p->dtype == ATTN_FP16;
  switch (p->D) {
    case 64: return half ? launch<__half, 64>(*p, stream) : launch<__nv_bfloat16, 64>(*p, stream);
    case 128: return half ? launch<__half, 128>(*p, stream) : launch<__nv_bfloat16, 128>(*p, stream);
    default: return cudaErrorInvalidValue;
  }
}
