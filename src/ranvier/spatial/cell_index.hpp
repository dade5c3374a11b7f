// Nodes of a layer sorted into a regular grid of cells, so that the candidates of a mask
// are found by visiting the cells under its bounding box instead of every node.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "spatial/layer_geometry.hpp"
#include "spatial/mask.hpp"

namespace ranvier::spatial {

class CellIndex {
 public:
  // Cells about an eighth of the mask's width, at most about two per node.
  CellIndex(const LayerGeometry& layer, const Box& mask_bounds);
  // Calls visit(first, last) for runs of members[first, last) that may lie in the box
  // `bounds` around `centre` (a superset: callers test each node).
  template <typename Visit>
  void candidates(const double* centre, const Box& bounds, Visit&& visit) const {
    int lo[3], hi[3];
    cell_range(centre, bounds, lo, hi);
    for (int z = lo[2]; z <= hi[2]; ++z)
      for (int y = lo[1]; y <= hi[1]; ++y) {
        const size_t row = (size_t(wrap(z, 2)) * size_t(cells_[1]) + size_t(wrap(y, 1))) * size_t(cells_[0]);
        // a run of x cells is one run of members; a wrapped run is two
        for (int x = lo[0]; x <= hi[0];) {
          const int first = wrap(x, 0);
          const int last = std::min(cells_[0] - 1, first + (hi[0] - x));
          const size_t begin = start_[row + size_t(first)], end = start_[row + size_t(last) + 1];
          if (begin < end) visit(begin, end);
          x += last - first + 1;
        }
      }
  }
  const std::vector<uint32_t>& members() const { return members_; }

 private:
  // Per dimension, the cells to visit as [lo, hi] (periodic ranges wrap; may exceed the grid).
  void cell_range(const double* centre, const Box& bounds, int* lo, int* hi) const;
  int wrap(int c, int k) const { return ((c % cells_[k]) + cells_[k]) % cells_[k]; }

  const LayerGeometry& layer_;
  int cells_[3] = {1, 1, 1};
  double width_[3] = {1, 1, 1};
  std::vector<uint32_t> start_;    // members of cell c: members_[start_[c], start_[c + 1])
  std::vector<uint32_t> members_;  // node indices, by cell (x fastest), ascending within a cell
};

}  // namespace ranvier::spatial
