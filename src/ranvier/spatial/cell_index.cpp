#include "spatial/cell_index.hpp"

#include <algorithm>
#include <cmath>

namespace ranvier::spatial {
namespace {
constexpr double cells_per_mask_width = 8.0;
constexpr double max_cells_per_node = 2.0;
}  // namespace

CellIndex::CellIndex(const LayerGeometry& layer, const Box& bounds) : layer_(layer) {
  const size_t n = layer.size();
  double total = 1.0;
  for (int k = 0; k < layer.dims; ++k) {
    const double mask_width = bounds.upper[k] - bounds.lower[k];
    const double cells = std::isfinite(mask_width) && mask_width > 0 && layer.extent[k] > 0
                             ? std::floor(layer.extent[k] * cells_per_mask_width / mask_width)
                             : 1.0;
    cells_[k] = int(std::clamp(cells, 1.0, 4096.0));
    total *= cells_[k];
  }
  // Too many cells for the nodes: coarsen every dimension alike.
  const double cap = std::max(1.0, max_cells_per_node * double(n));
  if (total > cap) {
    const double shrink = std::pow(cap / total, 1.0 / layer.dims);
    for (int k = 0; k < layer.dims; ++k) cells_[k] = std::max(1, int(std::floor(cells_[k] * shrink)));
  }
  for (int k = 0; k < layer.dims; ++k) width_[k] = layer.extent[k] > 0 ? layer.extent[k] / cells_[k] : 1.0;
  const size_t n_cells = size_t(cells_[0]) * size_t(cells_[1]) * size_t(cells_[2]);
  std::vector<uint32_t> cell_of(n);
  start_.assign(n_cells + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    size_t c = 0;
    for (int k = layer.dims - 1; k >= 0; --k) {
      double x = layer.at(i)[k] - layer.lower_left[k];
      if (layer.periodic && layer.extent[k] > 0) x -= layer.extent[k] * std::floor(x / layer.extent[k]);  // fold in
      const int cell = std::clamp(int(std::floor(x / width_[k])), 0, cells_[k] - 1);
      c = c * size_t(cells_[k]) + size_t(cell);
    }
    cell_of[i] = uint32_t(c);
    ++start_[c + 1];
  }
  for (size_t c = 0; c < n_cells; ++c) start_[c + 1] += start_[c];
  members_.resize(n);
  std::vector<uint32_t> fill(start_.begin(), start_.end() - 1);
  for (size_t i = 0; i < n; ++i) members_[fill[cell_of[i]]++] = uint32_t(i);
}

void CellIndex::cell_range(const double* centre, const Box& bounds, int* lo, int* hi) const {
  for (int k = 0; k < 3; ++k) lo[k] = hi[k] = 0;
  for (int k = 0; k < layer_.dims; ++k) {
    const double slack = 1e-9 * layer_.extent[k];  // rounding at cell borders
    const double a = centre[k] + bounds.lower[k] - slack - layer_.lower_left[k];
    const double b = centre[k] + bounds.upper[k] + slack - layer_.lower_left[k];
    if (!std::isfinite(a) || !std::isfinite(b) || b - a >= layer_.extent[k]) {
      lo[k] = 0, hi[k] = cells_[k] - 1;
      continue;
    }
    lo[k] = int(std::floor(a / width_[k])), hi[k] = int(std::floor(b / width_[k]));
    if (!layer_.periodic)
      lo[k] = std::max(lo[k], 0), hi[k] = std::min(hi[k], cells_[k] - 1);
    else if (hi[k] - lo[k] >= cells_[k])
      lo[k] = 0, hi[k] = cells_[k] - 1;
  }
}

}  // namespace ranvier::spatial
