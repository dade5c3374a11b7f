#include "spatial/parameter.hpp"
#include "core/errors.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/value_spec.hpp"

namespace ranvier::spatial {
namespace {

// How many stack entries an op takes and leaves: (pops, pushes).
std::pair<int, int> arity(int op) {
  switch (op) {
    case Parameter::constant:
    case Parameter::distance:
    case Parameter::distance_along:
    case Parameter::source_position:
    case Parameter::target_position:
    case Parameter::random:
      return {0, 1};
    case Parameter::exp:
    case Parameter::sin:
    case Parameter::cos:
    case Parameter::exponential:
    case Parameter::gaussian:
    case Parameter::gamma:
      return {1, 1};
    case Parameter::conditional:
      return {3, 1};
    case Parameter::gabor:
      return {2, 1};
    default:
      if (op >= Parameter::add && op <= Parameter::compare) return {2, 1};
      throw BadParameterError("unknown spatial parameter op " + std::to_string(op));
  }
}

// A random leaf's distribution, by its number in the program (spatial/parameters.py).
constexpr ValueSpec::Kind random_kinds[] = {ValueSpec::Kind::uniform, ValueSpec::Kind::normal,
                                            ValueSpec::Kind::lognormal, ValueSpec::Kind::exponential,
                                            ValueSpec::Kind::uniform_int};
constexpr int n_random_kinds = int(sizeof(random_kinds) / sizeof(random_kinds[0]));

ValueSpec random_spec(const double* a) {
  ValueSpec s;
  s.kind = random_kinds[int(a[0])];
  s.p0 = a[1], s.p1 = a[2], s.min = a[3], s.max = a[4], s.clip_min = a[5], s.clip_max = a[6];
  return s;
}

bool compared(int how, double x, double y) {
  switch (how) {
    case 0:
      return x < y;
    case 1:
      return x <= y;
    case 2:
      return x == y;
    case 3:
      return x != y;
    case 4:
      return x >= y;
    default:
      return x > y;
  }
}

}  // namespace

Parameter::Parameter(std::vector<double> program) : program_(std::move(program)) {
  if (program_.empty() || program_.size() % record_size)
    throw BadParameterError("spatial parameter program of a wrong length");
  int depth = 0;
  uint64_t randoms = 0;
  for (size_t i = 0; i < program_.size(); i += record_size) {
    const int op = int(program_[i]);
    const auto [pops, pushes] = arity(op);
    depth += pushes - pops;
    if (depth < 1 || depth > max_depth || (op == random && !(program_[i + 1] >= 0 && program_[i + 1] < n_random_kinds)))
      throw BadParameterError("malformed spatial parameter program");
    if (op == random) program_[i + 8] = double(randoms++);  // the leaf's slot
    // the distributions' constants, computed once (as NEST does: multiplications per value)
    double* a = program_.data() + i + 1;
    if (op == exponential) a[0] = 1.0 / a[0];
    if (op == gaussian) a[1] = 1.0 / (2.0 * a[1] * a[1]);
    if (op == gamma) a[2] = 1.0 / (std::tgamma(a[0]) * std::pow(a[1], a[0])), a[1] = 1.0 / a[1];
    if (op ==
        gabor) {  // theta, gamma, std, lambda, psi (degrees) -> cos, sin, gamma^2, 1 / (2 std^2), 2 pi / lambda, psi
      const double theta = a[0] * M_PI / 180.0, gamma = a[1], std = a[2], lambda = a[3], psi = a[4] * M_PI / 180.0;
      a[0] = std::cos(theta), a[1] = std::sin(theta), a[2] = gamma * gamma, a[3] = 1.0 / (2.0 * std * std);
      a[4] = 2.0 * M_PI / lambda, a[5] = psi;
    }
    if (op == gaussian2d) {
      const double sx = a[2], sy = a[3], rho = a[4], one_minus = 1.0 - rho * rho;
      a[2] = 1.0 / (2.0 * one_minus * sx * sx), a[3] = 1.0 / (2.0 * one_minus * sy * sy);
      a[4] = rho / (one_minus * sx * sy);
    }
  }
  if (depth != 1) throw BadParameterError("malformed spatial parameter program");
  slots_ = randoms ? randoms : 1;
}

double Parameter::value(const PairGeometry& g, const Stream& stream, uint64_t index) const {
  double s[max_depth];
  int n = 0;
  for (size_t i = 0; i < program_.size(); i += record_size) {
    const double* a = program_.data() + i + 1;
    switch (int(program_[i])) {
      case constant:
        s[n++] = a[0];
        break;
      case distance: {
        double sum = 0.0;
        for (int k = 0; k < g.dims; ++k) sum += g.displacement[k] * g.displacement[k];
        s[n++] = std::sqrt(sum);
        break;
      }
      case distance_along:
        s[n++] = std::fabs(g.displacement[int(a[0])]);
        break;
      case source_position:
        s[n++] = g.source[int(a[0])];
        break;
      case target_position:
        s[n++] = g.target[int(a[0])];
        break;
      case random:
        s[n++] = random_spec(a).value(0, stream, index * slots_ + uint64_t(a[7]));
        break;
      case add:
        --n, s[n - 1] += s[n];
        break;
      case subtract:
        --n, s[n - 1] -= s[n];
        break;
      case multiply:
        --n, s[n - 1] *= s[n];
        break;
      case divide:
        --n, s[n - 1] /= s[n];
        break;
      case power:
        --n, s[n - 1] = std::pow(s[n - 1], s[n]);
        break;
      case minimum:
        --n, s[n - 1] = std::fmin(s[n - 1], s[n]);
        break;
      case maximum:
        --n, s[n - 1] = std::fmax(s[n - 1], s[n]);
        break;
      case compare:
        --n, s[n - 1] = compared(int(a[0]), s[n - 1], s[n]) ? 1.0 : 0.0;
        break;
      case conditional:
        n -= 2, s[n - 1] = s[n - 1] != 0.0 ? s[n] : s[n + 1];
        break;
      case exp:
        s[n - 1] = std::exp(s[n - 1]);
        break;
      case sin:
        s[n - 1] = std::sin(s[n - 1]);
        break;
      case cos:
        s[n - 1] = std::cos(s[n - 1]);
        break;
      case exponential:
        s[n - 1] = std::exp(-s[n - 1] * a[0]);
        break;          // a: 1 / beta
      case gaussian: {  // a: mean, 1 / (2 std^2)
        const double d = s[n - 1] - a[0];
        s[n - 1] = std::exp(-d * d * a[1]);
        break;
      }
      case gaussian2d: {  // a: means, then the x, y and xy terms' constants
        --n;
        const double x = s[n - 1] - a[0], y = s[n] - a[1];
        s[n - 1] = std::exp(-(x * x * a[2] + y * y * a[3] - x * y * a[4]));
        break;
      }
      case gabor: {  // NEST's rectified Gabor of (x, y), rotated by theta
        --n;
        const double x = s[n - 1], y = s[n];
        const double along = x * a[0] + y * a[1], across = -x * a[1] + y * a[0];
        s[n - 1] =
            std::max(std::cos(across * a[4] + a[5]), 0.0) * std::exp(-(a[2] * along * along + across * across) * a[3]);
        break;
      }
      case gamma: {  // a: kappa, 1 / theta, 1 / (Gamma(kappa) theta^kappa)
        const double x = s[n - 1];
        s[n - 1] = std::pow(x, a[0] - 1.0) * std::exp(-x * a[1]) * a[2];
        break;
      }
    }
  }
  return s[0];
}

}  // namespace ranvier::spatial
