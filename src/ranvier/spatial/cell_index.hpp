// Nodes of a layer sorted into a regular grid of cells, so that the candidates of a mask
// are found by visiting the cells under its bounding box instead of every node.
#pragma once
#include <cstdint>
#include <functional>
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
  void candidates(const double* centre, const Box& bounds, const std::function<void(size_t, size_t)>& visit) const;
  const std::vector<uint32_t>& members() const { return members_; }

 private:
  const LayerGeometry& layer_;
  int cells_[3] = {1, 1, 1};
  double width_[3] = {1, 1, 1};
  std::vector<uint32_t> start_;    // members of cell c: members_[start_[c], start_[c + 1])
  std::vector<uint32_t> members_;  // node indices, by cell (x fastest), ascending within a cell
};

}  // namespace ranvier::spatial
