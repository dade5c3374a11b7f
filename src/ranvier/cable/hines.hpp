// Hines's (1984) solve of a tree-structured linear system, for W cells at once: the matrix has
// diagonal d[i] and off-diagonal -g[i] between node i and its parent (parent[i] < i, node 0 the
// root). Values are stored [node][lane], lane innermost, so that every loop over lanes is
// straight-line and vectorises; the tree is the same for all lanes.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ranvier::cable {

// Overwrites rhs with the solution and d with the eliminated diagonal.
template <size_t W>
inline void hines_solve(size_t n, const int32_t* parent, const double* g, double* d, double* rhs) {
  for (size_t i = n - 1; i > 0; --i) {  // leaves to root: eliminate each node from its parent's row
    const size_t p = size_t(parent[i]);
    const double gi = g[i];
    const double* __restrict di = d + i * W;
    const double* __restrict ri = rhs + i * W;
    double* __restrict dp = d + p * W;
    double* __restrict rp = rhs + p * W;
    for (size_t l = 0; l < W; ++l) {
      const double f = gi / di[l];
      dp[l] -= f * gi;
      rp[l] += f * ri[l];
    }
  }
  for (size_t l = 0; l < W; ++l) rhs[l] /= d[l];
  for (size_t i = 1; i < n; ++i) {  // root to leaves: back substitution
    const size_t p = size_t(parent[i]);
    const double gi = g[i];
    const double* __restrict di = d + i * W;
    const double* __restrict rp = rhs + p * W;
    double* __restrict ri = rhs + i * W;
    for (size_t l = 0; l < W; ++l) ri[l] = (ri[l] + gi * rp[l]) / di[l];
  }
}

}  // namespace ranvier::cable
