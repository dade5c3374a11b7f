// Hines's (1984) solve of a tree-structured linear system: diagonal d[i], off-diagonal -g[i]
// between node i and its parent (parent[i] < i, node 0 the root), in O(n). V is one node's value
// for several cells at once (a vector type, lanes.hpp) or a double: the tree is the same for all
// lanes, so every operation is straight-line across them.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ranvier::cable {

// Overwrites rhs with the solution and d with the inverse of the eliminated diagonal (one division
// per node: divisions are the slowest operation here).
template <class V>
inline void hines_solve(size_t n, const int32_t* parent, const double* g, V* d, V* rhs) {
  for (size_t i = n - 1; i > 0; --i) {  // leaves to root: eliminate each node from its parent's row
    const size_t p = size_t(parent[i]);
    d[i] = 1.0 / d[i];
    const V f = g[i] * d[i];
    d[p] -= f * g[i];
    rhs[p] += f * rhs[i];
  }
  rhs[0] /= d[0];
  for (size_t i = 1; i < n; ++i) rhs[i] = (rhs[i] + g[i] * rhs[size_t(parent[i])]) * d[i];  // back substitution
}

}  // namespace ranvier::cable
