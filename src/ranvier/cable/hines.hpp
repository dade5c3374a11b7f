// Hines's (1984) solve of a tree-structured linear system: diagonal d[i], off-diagonal -g[i]
// between node i and its parent (parent[i] < i, node 0 the root), in O(n). V is one node's value
// for several cells at once (a vector type, lanes.hpp) or a double: the tree is the same for all
// lanes, so every operation is straight-line across them. The conductances g are doubles (the same
// for every lane) or of type V (one per lane); system j's are g[j * g_stride + i] (g_stride 0:
// the same for all systems).
#pragma once
#include <cstddef>
#include <cstdint>

namespace ranvier::cable {

// B independent systems of the same tree, interleaved: d and rhs are [node][B]. Solving them
// together overlaps their chains of dependent operations (leaf to root, root to leaf), whose
// latency would otherwise bound the time. Overwrites rhs with the solution and d with the inverse of
// the eliminated diagonal (one division per node: divisions are the slowest operation here).
template <size_t B, class V, class G>
inline void hines_solve(size_t n, const int32_t* parent, const G* g, size_t g_stride, V* d, V* rhs) {
  for (size_t i = n - 1; i > 0; --i) {  // leaves to root: eliminate each node from its parent's row
    const size_t p = size_t(parent[i]);
    for (size_t j = 0; j < B; ++j) {
      d[i * B + j] = 1.0 / d[i * B + j];
      const G gi = g[j * g_stride + i];
      const V f = gi * d[i * B + j];
      d[p * B + j] -= f * gi;
      rhs[p * B + j] += f * rhs[i * B + j];
    }
  }
  for (size_t j = 0; j < B; ++j) rhs[j] /= d[j];
  for (size_t i = 1; i < n; ++i) {  // root to leaves: back substitution
    const size_t p = size_t(parent[i]);
    for (size_t j = 0; j < B; ++j)
      rhs[i * B + j] = (rhs[i * B + j] + g[j * g_stride + i] * rhs[p * B + j]) * d[i * B + j];
  }
}

}  // namespace ranvier::cable
