// Where the nodes of a spatial layer sit, and NEST's displacement between two points of it
// (periodic dimensions take the wrapped difference in [-extent/2, extent/2)).
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

namespace ranvier::spatial {

struct LayerGeometry {
  int dims = 2;
  std::vector<double> positions;  // node i at positions[i * dims + k]
  double lower_left[3] = {0, 0, 0}, extent[3] = {1, 1, 1};
  bool periodic = false;

  size_t size() const { return positions.size() / size_t(dims); }
  const double* at(size_t i) const { return positions.data() + i * size_t(dims); }

  void displacement(const double* from, const double* to, double* out) const {
    for (int k = 0; k < dims; ++k) {
      double d = to[k] - from[k];
      if (periodic) {
        const double half = 0.5 * extent[k];
        if (d >= half)
          d -= extent[k];  // nodes inside the layer: one extent at most
        else if (d < -half)
          d += extent[k];
        if (d >= half || d < -half) {  // nodes outside it
          d = -half + std::fmod(d + half, extent[k]);
          if (d < -half) d += extent[k];
        }
      }
      out[k] = d;
    }
  }
};

}  // namespace ranvier::spatial
