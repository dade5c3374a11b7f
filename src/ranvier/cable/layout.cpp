#include "cable/layout.hpp"

#include <cmath>
#include <new>

#include "core/errors.hpp"

namespace ranvier::cable {
namespace {

// The point a location stands for once x = 0 of a non-root branch is replaced by the point the
// branch attaches to: x in (0, 1), x = 1, or x = 0 on the root.
Location resolve(const std::vector<int32_t>& parent, const std::vector<double>& parent_x, Location at) {
  while (at.x == 0.0 && parent[at.branch] >= 0) at = {uint32_t(parent[at.branch]), parent_x[at.branch]};
  return at;
}

// Conductance (µS) of a truncated cone of length h (µm), end radii ra and rb (µm), resistivity
// Ra (Ω·cm): R = Ra ∫ ds / (π r(s)²) = Ra h / (π ra rb) with lengths in cm, i.e.
// 1e-2 Ra h / (π ra rb) MΩ (a cylinder's Ra h / (π r²)).
double cone_conductance(double Ra, double h, double ra, double rb) { return 1e2 * (M_PI * ra * rb) / (Ra * h); }

// Membrane area (µm²) of a truncated cone: its lateral surface π (ra + rb) sqrt(h² + (ra - rb)²)
// (a cylinder's π d h).
double cone_area(double h, double ra, double rb) { return M_PI * (ra + rb) * std::sqrt(h * h + (ra - rb) * (ra - rb)); }

// The part [xa, xb] of a branch, h µm long: its axial conductance (µS) and membrane area (µm²),
// summed over its truncated cones (split at the taper's points inside; one for a cylinder).
struct Part {
  double conductance, area;
};
Part part(const Branch& b, double Ra, double xa, double xb, double h) {
  std::vector<double> x{xa};
  for (const auto& point : b.taper)
    if (point.first > xa && point.first < xb) x.push_back(point.first);
  x.push_back(xb);
  if (x.size() == 2) {
    const double ra = b.diameter_at(xa) / 2.0, rb = b.diameter_at(xb) / 2.0;
    return {cone_conductance(Ra, h, ra, rb), cone_area(h, ra, rb)};
  }
  double resistance = 0.0, area = 0.0;
  for (size_t k = 1; k < x.size(); ++k) {
    const double length = (x[k] - x[k - 1]) * b.length, ra = b.diameter_at(x[k - 1]) / 2.0,
                 rb = b.diameter_at(x[k]) / 2.0;
    if (length > 0.0) resistance += 1.0 / cone_conductance(Ra, length, ra, rb);
    area += cone_area(length, ra, rb);
  }
  return {1.0 / resistance, area};
}

}  // namespace

size_t Layout::node_of(const Location& where) const {
  const Location at = resolve(branch_parent, branch_parent_x, where);
  if (at.x == 1.0) {
    const int32_t j = distal_junction[at.branch];
    return j >= 0 ? size_t(j) : first_cv[at.branch] + n_cv[at.branch] - 1;
  }
  if (at.x == 0.0) return root_junction >= 0 ? size_t(root_junction) : first_cv[0];
  const uint32_t k = std::min(uint32_t(double(n_cv[at.branch]) * at.x), n_cv[at.branch] - 1);
  return first_cv[at.branch] + k;
}

static Layout layout_of(const Description& d) {
  Layout l;
  const size_t nb = d.branches.size();
  for (const Branch& b : d.branches) {
    l.branch_parent.push_back(b.parent);
    l.branch_parent_x.push_back(b.parent_x);
    l.n_cv.push_back(b.n_cv);
  }
  // Which branch ends get a junction node: those where a child attaches or a synapse, clamp or
  // the detector sits (NEURON puts them on the zero-area node there).
  std::vector<Location> attach(nb);
  std::vector<char> distal(nb, 0);
  bool root_end = false;
  auto mark = [&](const Location& where) {
    const Location at = resolve(l.branch_parent, l.branch_parent_x, where);
    if (at.x == 1.0) distal[at.branch] = 1;
    if (at.x == 0.0) root_end = true;
    return at;
  };
  for (size_t b = 1; b < nb; ++b) attach[b] = mark({uint32_t(d.branches[b].parent), d.branches[b].parent_x});
  for (const PointSynapse& s : d.synapses) mark(s.location);
  for (const CurrentClamp& c : d.clamps) mark(c.location);
  mark(d.detector);
  auto add = [&l](int32_t parent, double g, double area, double Ra) {
    if (!std::isfinite(g))  // an Ra so small that the axial conductance overflows: the cell would freeze
      throw bad_value("Ra", Ra, "large enough that every axial conductance stays finite");
    l.parent.push_back(parent);
    l.g_axial.push_back(g);
    l.area.push_back(area);
    return int32_t(l.parent.size() - 1);
  };
  if (root_end) l.root_junction = add(-1, 0.0, 0.0, d.Ra_of(0));
  l.first_cv.resize(nb);
  l.distal_junction.assign(nb, -1);
  for (size_t b = 0; b < nb; ++b) {
    const Branch& br = d.branches[b];
    const uint32_t n = br.n_cv;
    const double Ra = d.Ra_of(uint32_t(b));
    const double h = br.length / n / 2.0;  // half a CV
    // The k-th point of 2n + 1: the CV boundaries (even k) and centres (odd k).
    auto x = [&](uint32_t k) { return double(k) / double(2 * n); };
    // CV k's area and its halves' conductances, proximal and distal.
    auto area = [&](uint32_t k) { return part(br, Ra, x(2 * k), x(2 * k + 2), 2.0 * h).area; };
    auto g_proximal = [&](uint32_t k) { return part(br, Ra, x(2 * k), x(2 * k + 1), h).conductance; };
    auto g_distal = [&](uint32_t k) { return part(br, Ra, x(2 * k + 1), x(2 * k + 2), h).conductance; };
    // The first CV couples through its own proximal half only (the parent's side is the parent
    // node itself: a CV centre, or a junction node that carries the parent's distal half).
    const int32_t up = b == 0 ? l.root_junction : int32_t(l.node_of(attach[b]));
    l.first_cv[b] = uint32_t(add(up, up >= 0 ? g_proximal(0) : 0.0, area(0), Ra));
    for (uint32_t k = 1; k < n; ++k)  // two halves in series
      add(int32_t(l.first_cv[b] + k - 1), 1.0 / (1.0 / g_distal(k - 1) + 1.0 / g_proximal(k)), area(k), Ra);
    if (distal[b]) l.distal_junction[b] = add(int32_t(l.first_cv[b] + n - 1), g_distal(n - 1), 0.0, Ra);
  }
  return l;
}

Layout build_layout(const Description& d) {
  try {
    return layout_of(d);
  } catch (const std::bad_alloc&) {  // say what did not fit
    uint64_t cvs = 0;
    for (const Branch& b : d.branches) cvs += b.n_cv;
    throw OutOfMemoryError("a cable cell of " + std::to_string(cvs) +
                           " CVs (its cv_policy) does not fit in this process's memory");
  }
}

}  // namespace ranvier::cable
