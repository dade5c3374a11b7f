// How a per-connection or per-node value is given: a constant, an array, or a distribution
// drawn from a counter-based stream (so the value depends only on who it belongs to).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/rng.hpp"

namespace ranvier {

struct ValueSpec {
  enum class Kind { constant, array, uniform, normal, lognormal, exponential, uniform_int };
  Kind kind = Kind::constant;
  // constant: value; uniform: low, high; normal/lognormal: mean, std; exponential: scale
  // (the mean); uniform_int: n, offset (the integers offset .. offset + n - 1, n < 2^53)
  double p0 = 0.0, p1 = 0.0;
  double min = -INFINITY, max = INFINITY;            // redraw outside [min, max) (NEST's redraw)
  double clip_min = -INFINITY, clip_max = INFINITY;  // then clip (NEST's math.max / math.min)
  std::vector<double> values;                        // for Kind::array
  std::vector<uint64_t> shape;  // Kind::array: the shape the caller gave (errors name it); empty: flat

  // array_index: position of this value in an array spec; stream/index: where a random
  // value comes from. Redraws for bounds move on by a stride so indices never collide.
  double value(uint64_t array_index, const Stream& stream, uint64_t index) const {
    switch (kind) {
      case Kind::constant:
        return p0;
      case Kind::array:
        return values[array_index];
      default:
        return bounded(draw(stream, index), stream, index);
    }
  }
  // out[i] = the first draw at index first + i, for i < n, of a random kind: a whole batch
  // at once (normals two to a block); bounded() then redraws the few the bounds reject.
  void first_draws(const Stream& stream, uint64_t first, size_t n, double* out) const {
    switch (kind) {
      case Kind::normal:
        stream.normals(first, n, out);
        for (size_t i = 0; i < n; ++i) out[i] = p0 + p1 * out[i];
        break;
      case Kind::lognormal:
        stream.normals(first, n, out);
        for (size_t i = 0; i < n; ++i) out[i] = std::exp(p0 + p1 * out[i]);
        break;
      default:
        for (size_t i = 0; i < n; ++i) out[i] = draw(stream, first + i);
    }
  }
  // The value at index given its first draw v: redrawn until the bounds keep it, then clipped.
  double bounded(double v, const Stream& stream, uint64_t index) const {
    if (!(v >= min && v < max)) v = redrawn(stream, index);
    return std::min(std::max(v, clip_min), clip_max);
  }
  // As NEST's redraw: a value the bounds keep must turn up within this many draws.
  static constexpr uint64_t max_redraws = 1000;

 private:
  // The first value in bounds among the draws after the first (value_spec.cpp).
  double redrawn(const Stream& stream, uint64_t index) const;
  double draw(const Stream& stream, uint64_t index) const {
    switch (kind) {
      case Kind::uniform:
        return p0 + (p1 - p0) * stream.uniform(index);
      case Kind::normal:
        return p0 + p1 * stream.normal(index);
      case Kind::lognormal:
        return std::exp(p0 + p1 * stream.normal(index));
      case Kind::exponential:
        return -p0 * std::log1p(-stream.uniform(index));
      case Kind::uniform_int:
        return p1 + double(stream.below(index, uint64_t(p0)));
      default:
        return p0;
    }
  }
};

}  // namespace ranvier
