#include "cable/description.hpp"

#include <cmath>
#include <cstdint>
#include <set>

#include "cable/mechanism_kind.hpp"
#include "cable/mechanisms.hpp"
#include "core/errors.hpp"

namespace ranvier::cable {
namespace {

std::string item(const std::string& list, size_t i) { return list + "[" + std::to_string(i) + "]"; }

void positive(const std::string& name, double value) {
  if (!(value > 0.0) || !std::isfinite(value)) throw bad_value(name, value, "a positive finite number");
}

void finite(const std::string& name, double value) {
  if (!std::isfinite(value)) throw bad_value(name, value, "finite");
}

void check_location(const Description& d, const std::string& name, const Location& loc) {
  if (loc.branch >= d.branches.size())
    throw bad_value(name + ".branch", loc.branch, "below the branch count " + std::to_string(d.branches.size()));
  if (!(loc.x >= 0.0 && loc.x <= 1.0)) throw bad_value(name + ".x", loc.x, "in [0, 1]");
}

std::string names_of(const Mechanisms& mechanisms) {
  std::string names;
  for (const auto& [model, parameters] : mechanisms) names += (names.empty() ? "" : ", ") + model;
  return names;
}

// Every given parameter must be one the model knows.
void check_params(const std::string& name, const std::map<std::string, double>& given,
                  const std::map<std::string, double>& known) {
  for (const auto& [key, value] : given) {
    if (!known.count(key)) throw BadParameterError(name + " has no parameter '" + key + "'");
    finite(name + "." + key, value);
  }
}

// A clamp's delay, duration and amplitude (`name` names it in the error).
void validate_timing(const CurrentClamp& c, const std::string& name) {
  if (!(c.delay >= 0.0) || !std::isfinite(c.delay)) throw bad_value(name + ".delay", c.delay, "finite and >= 0");
  if (!(c.duration >= 0.0) || !std::isfinite(c.duration))
    throw bad_value(name + ".duration", c.duration, "finite and >= 0");
  finite(name + ".amplitude", c.amplitude);
}

}  // namespace

double Branch::diameter_at(double x) const {
  if (taper.empty()) return diameter;
  size_t k = 1;
  while (k + 1 < taper.size() && taper[k].first < x) ++k;
  const auto& [x0, d0] = taper[k - 1];
  const auto& [x1, d1] = taper[k];
  return x1 > x0 ? d0 + (d1 - d0) * ((x - x0) / (x1 - x0)) : d1;
}

double Description::cm_of(uint32_t branch) const {
  const double own = branches[branch].cm;
  return std::isnan(own) ? cm : own;
}

double Description::Ra_of(uint32_t branch) const {
  const double own = branches[branch].Ra;
  return std::isnan(own) ? Ra : own;
}

double Description::ion_e_of(uint32_t branch, const std::string& ion) const {
  for (const auto* given : {&branches[branch].ion_e, &ion_e})
    if (const auto it = given->find(ion); it != given->end()) return it->second;
  return ion_values(ion).e;
}

void validate(const Description& d) {
  if (d.branches.empty()) throw bad_value("branches.size()", 0, "at least 1");
  for (size_t i = 0; i < d.branches.size(); ++i) {
    const Branch& b = d.branches[i];
    const std::string name = item("branches", i) + " ('" + b.name + "')";
    if (i == 0 && b.parent != -1) throw bad_value(name + ".parent", b.parent, "-1 (branch 0 is the root)");
    if (i > 0 && (b.parent < 0 || b.parent >= int(i)))
      throw bad_value(name + ".parent", b.parent, "in [0, " + std::to_string(i) + ") (a parent precedes its child)");
    if (!(b.parent_x >= 0.0 && b.parent_x <= 1.0)) throw bad_value(name + ".parent_x", b.parent_x, "in [0, 1]");
    positive(name + ".length", b.length);
    positive(name + ".diameter", b.diameter);
    for (size_t k = 0; k < b.taper.size(); ++k) {
      const auto& [x, diameter] = b.taper[k];
      const std::string point = name + ".taper[" + std::to_string(k) + "]";
      const double low = k == 0 ? 0.0 : b.taper[k - 1].first, high = k == 0 ? 0.0 : 1.0;
      if (!(x >= low && x <= high))
        throw bad_value(point + ".x", x,
                        "in [" + std::to_string(low) + ", " + std::to_string(high) + "] (ascending from 0)");
      positive(point + ".diameter", diameter);
    }
    if (b.taper.size() == 1 || (!b.taper.empty() && b.taper.back().first != 1.0))
      throw bad_value(name + ".taper.back().x", b.taper.back().first, "1 (a taper has points at both ends)");
    if (b.n_cv == 0) throw bad_value(name + ".n_cv", b.n_cv, "at least 1");
  }
  positive("dt", d.dt);
  positive("cm", d.cm);
  positive("Ra", d.Ra);
  for (uint32_t i = 0; i < d.branches.size(); ++i) {  // a region's own (each branch of it has them)
    positive("cm['" + d.branches[i].name + "']", d.cm_of(i));
    positive("Ra['" + d.branches[i].name + "']", d.Ra_of(i));
  }
  finite("V_init", d.V_init);
  finite("celsius", d.celsius);
  finite("threshold", d.threshold);
  std::set<std::string> ions;  // the built-ins' (na, k) and those the description's compiled mechanisms use
  for (const auto& [ion, e] : ion_defaults()) ions.insert(ion);
  auto add_ions_of = [&](const std::string& model) {
    if (const MechanismKind* kind = compiled_mechanism(model))
      for (const IonUse& use : kind->declaration().ions) ions.insert(use.ion);
  };
  for (const Density& m : d.densities) add_ions_of(m.model);
  for (const PointSynapse& s : d.synapses) add_ions_of(s.model);
  auto check_ions = [&](const std::map<std::string, double>& given, const std::string& where) {
    for (const auto& [ion, e] : given) {
      if (!ions.count(ion)) throw BadParameterError("unknown ion '" + ion + "' (no mechanism of the cell uses it)");
      finite("ions." + ion + ".e" + where, e);
    }
  };
  check_ions(d.ion_e, "");
  for (const Branch& b : d.branches) check_ions(b.ion_e, "['" + b.name + "']");
  std::set<std::pair<std::string, uint32_t>> placed;
  for (size_t i = 0; i < d.densities.size(); ++i) {
    const Density& m = d.densities[i];
    const std::string name = item("densities", i) + " ('" + m.model + "')";
    const auto* known = density_defaults(m.model);
    if (!known)
      throw BadParameterError(name + ": unknown density mechanism '" + m.model + "' (known: " +
                              names_of(density_mechanisms()) + "; load_mechanisms adds those of .mod files)");
    if (m.branch >= d.branches.size())
      throw bad_value(name + ".branch", m.branch, "below the branch count " + std::to_string(d.branches.size()));
    if (!placed.insert({m.model, m.branch}).second)
      throw bad_value(name + ".branch", m.branch, "a branch without another '" + m.model + "'");
    check_params(name, m.params, *known);
  }
  std::set<std::string> names;
  for (size_t i = 0; i < d.synapses.size(); ++i) {
    const PointSynapse& s = d.synapses[i];
    const std::string name = item("synapses", i) + " ('" + s.name + "')";
    const auto* known = synapse_defaults(s.model);
    if (!known)
      throw BadParameterError(name + ": unknown synapse model '" + s.model +
                              "' (known: " + names_of(synapse_mechanisms()) +
                              "; load_mechanisms adds the point processes of .mod files)");
    if (s.name.empty() || !names.insert(s.name).second)
      throw bad_value(item("synapses", i) + ".name", "'" + s.name + "'", "a unique non-empty name");
    check_location(d, name + ".location", s.location);
    check_params(name, s.params, *known);
    for (const char* tau : {"tau", "tau1", "tau2"})
      if (known->count(tau)) positive(name + "." + tau, param_or_default(s.params, *known, tau));
  }
  check_location(d, "detector", d.detector);
  for (size_t i = 0; i < d.clamps.size(); ++i) {
    const CurrentClamp& c = d.clamps[i];
    const std::string name = item("clamps", i);
    check_location(d, name + ".location", c.location);
    validate_timing(c, name);
  }
}

void cv_per_branch(Description& d, const std::map<std::string, uint32_t>& per_region) {
  for (const auto& [region, n] : per_region) {
    if (n == 0) throw bad_value("per_branch['" + region + "']", n, "at least 1");
    bool found = false;
    for (Branch& b : d.branches)
      if (b.name == region) b.n_cv = n, found = true;
    if (!found) throw bad_value("per_branch region", "'" + region + "'", "the name of a branch");
  }
}

// A rule's CV count for a branch, which must fit the count's type (a rule's tiny value would
// wrap it round).
static uint32_t cv_count(double n, const std::string& rule, double value) {
  if (!(n <= double(UINT32_MAX)))
    throw bad_value(rule, value,
                    "large enough that each branch has fewer than 2^32 CVs (it asks for " + std::to_string(n) + ")");
  return uint32_t(n);
}

void cv_max_length(Description& d, double max_length) {
  positive("max_length", max_length);
  for (Branch& b : d.branches)
    b.n_cv = cv_count(std::max(1.0, std::ceil(b.length / max_length)), "max_length", max_length);
}

void cv_odd_per_length(Description& d, double length) {
  positive("odd_per_length", length);
  for (Branch& b : d.branches) b.n_cv = cv_count(1.0 + 2.0 * std::floor(b.length / length), "odd_per_length", length);
}

void cv_d_lambda(Description& d, double d_lambda) {
  positive("d_lambda", d_lambda);
  constexpr double frequency = 100.0;  // Hz, NEURON's default for the rule
  for (uint32_t i = 0; i < d.branches.size(); ++i) {
    Branch& b = d.branches[i];
    const double Ra = d.Ra_of(i), cm = d.cm_of(i);
    positive("Ra['" + b.name + "']", Ra);
    positive("cm['" + b.name + "']", cm);
    // NEURON's lambda_f: the AC length constant (µm) at the frequency; of a tapered branch its sum
    // over the 3D points, L / Σ Δs / sqrt((d_a + d_b) / 2) in place of sqrt(diam) (for one cone,
    // that of the mean diameter).
    double lambda_f = 1e5 * std::sqrt(b.diameter / (4.0 * M_PI * frequency * Ra * cm));
    if (!b.taper.empty()) {
      double sum = 0.0;
      for (size_t k = 1; k < b.taper.size(); ++k)
        sum += (b.taper[k].first - b.taper[k - 1].first) / std::sqrt(0.5 * (b.taper[k].second + b.taper[k - 1].second));
      lambda_f = 1e5 / (sum * std::sqrt(4.0 * M_PI * frequency * Ra * cm));
    }
    b.n_cv = cv_count(std::floor((b.length / (d_lambda * lambda_f) + 0.9) / 2.0) * 2 + 1, "d_lambda", d_lambda);
  }
}

}  // namespace ranvier::cable
