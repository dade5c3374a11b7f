// Record layouts (after the op code):
//   box:     lower[3], upper[3], azimuth, polar (degrees, rotation about the box centre)
//   ball:    centre[3], radius
//   ellipse: centre[3], major, minor, polar axis, azimuth, polar (degrees)
//   all, intersect, unite, minus: none
// Anchors are applied in Python, by moving the shapes.
#include "spatial/mask.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ranvier::spatial {
namespace {

constexpr double degree = M_PI / 180.0;
constexpr double boundary_slack = 1e-12;  // rotated boxes: points on the edge stay inside

// The point seen in the shape's own frame: relative to `centre`, azimuth undone about z,
// then the polar tilt undone about y.
std::array<double, 3> unrotate(const double* p, const double* centre, double azimuth, double polar, int dims) {
  std::array<double, 3> d{p[0] - centre[0], p[1] - centre[1], dims == 3 ? p[2] - centre[2] : 0.0};
  if (azimuth != 0.0) {
    const double c = std::cos(azimuth * degree), s = std::sin(azimuth * degree);
    d = {d[0] * c + d[1] * s, -d[0] * s + d[1] * c, d[2]};
  }
  if (polar != 0.0) {
    const double c = std::cos(polar * degree), s = std::sin(polar * degree);
    d = {d[0] * c - d[2] * s, d[1], d[0] * s + d[2] * c};
  }
  return d;
}

bool in_box(const double* r, const double* p, int dims) {
  double centre[3];
  for (int k = 0; k < 3; ++k) centre[k] = 0.5 * (r[k] + r[3 + k]);
  const auto d = unrotate(p, centre, r[6], r[7], dims);
  for (int k = 0; k < dims; ++k) {
    const double x = d[size_t(k)] + centre[k];
    if (x < r[k] - boundary_slack || x > r[3 + k] + boundary_slack) return false;
  }
  return true;
}

bool in_ball(const double* r, const double* p, int dims) {
  double sum = 0.0;
  for (int k = 0; k < dims; ++k) sum += (p[k] - r[k]) * (p[k] - r[k]);
  // the square root decides only near the edge (where rounding could tell the two apart)
  const double r2 = r[3] * r[3];
  if (sum < r2 * (1.0 - 1e-9)) return true;
  if (sum > r2 * (1.0 + 1e-9)) return false;
  return std::sqrt(sum) <= r[3];
}

bool in_ellipse(const double* r, const double* p, int dims) {
  const auto d = unrotate(p, r, r[6], r[7], dims);
  double sum = 4.0 * d[0] * d[0] / (r[3] * r[3]) + 4.0 * d[1] * d[1] / (r[4] * r[4]);
  if (dims == 3) sum += 4.0 * d[2] * d[2] / (r[5] * r[5]);
  return sum <= 1.0;
}

// Corners of a rotated shape's frame box, rotated back: their bounds hold the shape.
Box rotated_bounds(const double* lower, const double* upper, const double* centre, double azimuth, double polar,
                   int dims) {
  Box b;
  for (int k = 0; k < 3; ++k) b.lower[k] = INFINITY, b.upper[k] = -INFINITY;
  const double ca = std::cos(azimuth * degree), sa = std::sin(azimuth * degree);
  const double cp = std::cos(polar * degree), sp = std::sin(polar * degree);
  for (int corner = 0; corner < (1 << dims); ++corner) {
    double q[3] = {0, 0, 0};
    for (int k = 0; k < dims; ++k) q[k] = ((corner >> k) & 1 ? upper[k] : lower[k]) - centre[k];
    // inverse of unrotate: polar tilt about y, then azimuth about z
    const double x1 = q[0] * cp + q[2] * sp, z1 = -q[0] * sp + q[2] * cp, y1 = q[1];
    const double x = x1 * ca - y1 * sa, y = x1 * sa + y1 * ca;
    const double out[3] = {x + centre[0], y + centre[1], z1 + centre[2]};
    for (int k = 0; k < dims; ++k) {
      b.lower[k] = std::min(b.lower[k], out[k]);
      b.upper[k] = std::max(b.upper[k], out[k]);
    }
  }
  return b;
}

}  // namespace

Mask::Mask(std::vector<double> program, int dims) : program_(std::move(program)), dims_(dims) {
  if (program_.size() % record_size) throw BadParameterError("mask program of a wrong length");
  if (program_.size() == record_size && int(program_[0]) == all) program_.clear();
  int depth = 0;
  for (size_t i = 0; i < program_.size(); i += record_size) {
    const int op = int(program_[i]);
    if (op < all || op > minus) throw BadParameterError("unknown mask op");
    depth += op <= ellipse ? 1 : -1;
    if (depth < 1 || depth > max_depth) throw BadParameterError("malformed mask program");
  }
  if (!program_.empty() && depth != 1) throw BadParameterError("malformed mask program");
}

bool Mask::contains(double x, double y, double z) const {
  if (program_.empty()) return true;
  const double p[3] = {x, y, z};
  if (program_.size() == record_size) {  // one shape: no stack
    switch (int(program_[0])) {
      case box:
        return in_box(program_.data() + 1, p, dims_);
      case ball:
        return in_ball(program_.data() + 1, p, dims_);
      default:
        return in_ellipse(program_.data() + 1, p, dims_);
    }
  }
  bool answers[max_depth];
  int n = 0;
  const size_t records = program_.size() / record_size;
  for (size_t i = 0; i < records; ++i) {
    const double* r = record(i);
    const double* args = r + 1;
    switch (int(r[0])) {
      case all:
        answers[n++] = true;
        break;
      case box:
        answers[n++] = in_box(args, p, dims_);
        break;
      case ball:
        answers[n++] = in_ball(args, p, dims_);
        break;
      case ellipse:
        answers[n++] = in_ellipse(args, p, dims_);
        break;
      case intersect:
        --n, answers[n - 1] = answers[n - 1] && answers[n];
        break;
      case unite:
        --n, answers[n - 1] = answers[n - 1] || answers[n];
        break;
      case minus:
        --n, answers[n - 1] = answers[n - 1] && !answers[n];
        break;
    }
  }
  return answers[0];
}

Box Mask::bounds() const {
  Box all_space;
  for (int k = 0; k < 3; ++k) all_space.lower[k] = -INFINITY, all_space.upper[k] = INFINITY;
  if (program_.empty()) return all_space;
  Box stack[max_depth];
  int n = 0;
  const size_t records = program_.size() / record_size;
  for (size_t i = 0; i < records; ++i) {
    const double* r = record(i);
    const double* a = r + 1;
    Box b;
    switch (int(r[0])) {
      case all:
        stack[n++] = all_space;
        break;
      case box: {
        double centre[3];
        for (int k = 0; k < 3; ++k) centre[k] = 0.5 * (a[k] + a[3 + k]);
        stack[n++] = rotated_bounds(a, a + 3, centre, a[6], a[7], dims_);
        break;
      }
      case ball:
        for (int k = 0; k < 3; ++k) b.lower[k] = a[k] - a[3], b.upper[k] = a[k] + a[3];
        stack[n++] = b;
        break;
      case ellipse: {
        const double half[3] = {a[3] / 2, a[4] / 2, a[5] / 2};
        double lower[3], upper[3];
        for (int k = 0; k < 3; ++k) lower[k] = a[k] - half[k], upper[k] = a[k] + half[k];
        stack[n++] = rotated_bounds(lower, upper, a, a[6], a[7], dims_);
        break;
      }
      case intersect:
        --n;
        for (int k = 0; k < 3; ++k)
          stack[n - 1].lower[k] = std::max(stack[n - 1].lower[k], stack[n].lower[k]),
                    stack[n - 1].upper[k] = std::min(stack[n - 1].upper[k], stack[n].upper[k]);
        break;
      case unite:
        --n;
        for (int k = 0; k < 3; ++k)
          stack[n - 1].lower[k] = std::min(stack[n - 1].lower[k], stack[n].lower[k]),
                    stack[n - 1].upper[k] = std::max(stack[n - 1].upper[k], stack[n].upper[k]);
        break;
      case minus:
        --n;
        break;
    }
  }
  return stack[0];
}

}  // namespace ranvier::spatial
