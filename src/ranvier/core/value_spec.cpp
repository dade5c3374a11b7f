#include "core/value_spec.hpp"

namespace ranvier {

// Out of line: nearly every first draw is in bounds, and this keeps the throw out of the loops.
double ValueSpec::redrawn(const Stream& stream, uint64_t index) const {
  constexpr uint64_t redraw_stride = uint64_t(1) << 40;  // redraws never reach another value's index
  for (uint64_t attempt = 1; attempt < max_redraws; ++attempt) {
    const double v = draw(stream, index + attempt * redraw_stride);
    if (v >= min && v < max) return v;
  }
  throw BadParameterError("redraw found no value in [" + std::to_string(min) + ", " + std::to_string(max) + ") in " +
                          std::to_string(max_redraws) + " draws: the bounds exclude nearly all of the distribution");
}

}  // namespace ranvier
