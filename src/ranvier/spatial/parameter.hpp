// Spatial parameters (p, weight, delay of a spatial Connect) as a postfix program over the
// pair's positions and displacement, with random leaves drawn from counter-based streams.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"

namespace ranvier::spatial {

// What a parameter sees of one (source, target) pair.
struct PairGeometry {
  const double* source;
  const double* target;
  const double* displacement;  // target to source as the rule defines it, wrapped
  int dims;
};

class Parameter {
 public:
  static constexpr size_t record_size = 9;  // [op, up to 8 arguments]
  enum Op {
    constant = 0,
    distance = 1,
    distance_along = 2,
    source_position = 3,
    target_position = 4,
    add = 5,
    subtract = 6,
    multiply = 7,
    divide = 8,
    power = 9,
    minimum = 10,
    maximum = 11,
    exp = 12,
    sin = 13,
    cos = 14,
    random = 15,
    exponential = 16,
    gaussian = 17,
    gaussian2d = 18,
    gamma = 19,
    compare = 20,
    conditional = 21,
    gabor = 22
  };
  static constexpr int max_depth = 32;

  Parameter() : Parameter({double(constant), 0, 0, 0, 0, 0, 0, 0, 0}) {}
  explicit Parameter(std::vector<double> program);
  bool is_constant() const { return program_.size() == record_size && int(program_[0]) == constant; }
  double constant_value() const { return program_[1]; }
  // Random leaves draw from `stream` at (index * slots + slot), so every leaf of every
  // pair has its own number.
  double value(const PairGeometry& g, const Stream& stream, uint64_t index) const;

 private:
  std::vector<double> program_;
  uint64_t slots_ = 1;
};

}  // namespace ranvier::spatial
