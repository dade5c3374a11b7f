// Spatial masks as a postfix program (shapes, anchors and the set operations & | -),
// tested on the displacement of a candidate relative to the mask's centre node.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

namespace ranvier::spatial {

struct Box {
  double lower[3] = {0, 0, 0}, upper[3] = {0, 0, 0};
};

class Mask {
 public:
  // Records of record_size doubles: [op, parameters...] (see mask.cpp for each op's layout).
  static constexpr size_t record_size = 12;
  enum Op { all = 0, box = 1, ball = 2, ellipse = 3, intersect = 4, unite = 5, minus = 6 };
  static constexpr int max_depth = 32;  // of the program's stack

  Mask() = default;
  Mask(std::vector<double> program, int dims);
  bool contains(const double* point) const { return contains(point[0], point[1], dims_ == 3 ? point[2] : 0.0); }
  // Coordinates by value: a point just written element by element is not read back as a
  // vector (a store-forwarding stall that cost a quarter of a spatial Connect).
  bool contains(double x, double y, double z) const;
  // A box that holds every point of the mask (infinite for `all`).
  Box bounds() const;

 private:
  const double* record(size_t i) const { return program_.data() + i * record_size; }
  std::vector<double> program_;
  int dims_ = 2;
};

}  // namespace ranvier::spatial
