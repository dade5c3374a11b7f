#include "models/synaptic_elements.hpp"

#include <algorithm>
#include <cstring>

#include "core/errors.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {

const std::vector<Variable>& calcium_variables() {
  // NEST's StructuralPlasticityNode defaults
  static const std::vector<Variable> vars = {{"Ca", 0.0, ""}, {"tau_Ca", 10000.0, "ms"}, {"beta_Ca", 0.001, ""}};
  return vars;
}

const std::vector<std::string>& growth_curve_names() {
  static const std::vector<std::string> names = {"gaussian", "linear", "sigmoid"};
  return names;
}

void SynapticElement::grow(double t0, double t1, double ca0, double tau_ca, double h) {
  // Each curve's arithmetic is NEST's, operation for operation, so that z matches it to the bit.
  double z_new = z;
  if (curve == GrowthCurve::linear) {
    const double ca = ca0 * std::exp((t0 - t1) / tau_ca);
    z_new = growth_rate * tau_ca * (ca - ca0) / eps + growth_rate * (t1 - t0) + z;
  } else if (curve == GrowthCurve::gaussian) {
    const double inv_tau = 1.0 / tau_ca;
    const double inv_zeta = 2.0 * std::sqrt(std::log(2.0)) / (eta - eps);
    const double xi = (eta + eps) * 0.5;
    double ca = ca0;
    for (double lag = t0; lag < t1 - h * 0.5; lag += h) {
      ca = ca - ((ca * inv_tau) * h);
      z_new += h * growth_rate * (2.0 * std::exp(-std::pow((ca - xi) * inv_zeta, 2)) - 1.0);
    }
  } else {
    double ca = ca0;
    for (double lag = t0; lag < t1 - h / 2.0; lag += h) {
      ca = ca - ((ca / tau_ca) * h);
      z_new = z_new + h * growth_rate * ((2.0 / (1.0 + std::exp((ca - eps) / psi))) - 1.0);
    }
  }
  z = std::max(z_new, 0.0);
}

void SynapticElement::set(const std::map<std::string, double>& values) {
  static const char* const known[] = {"growth_rate",  "tau_vacant", "continuous", "z",  "z_connected",
                                      "growth_curve", "eps",        "eta",        "psi"};
  for (const auto& [key, _] : values)
    if (std::find(std::begin(known), std::end(known), key) == std::end(known))
      throw UnknownParameterError("synaptic element " + name + ": no parameter " + key +
                                  " (an element has growth_rate, tau_vacant, continuous, z, growth_curve and its "
                                  "curve's eps, eta or psi)");
  SynapticElement next = *this;
  auto given = [&](const char* key, double& into) {
    if (const auto it = values.find(key); it != values.end()) into = it->second;
  };
  given("growth_rate", next.growth_rate);
  given("tau_vacant", next.tau_vacant);
  given("z", next.z);
  if (const auto it = values.find("continuous"); it != values.end()) next.continuous = it->second != 0.0;
  if (const auto it = values.find("growth_curve"); it != values.end() && GrowthCurve(int(it->second)) != curve) {
    const SynapticElement fresh;
    next.curve = GrowthCurve(int(it->second));
    next.eps = fresh.eps, next.eta = fresh.eta, next.psi = fresh.psi;
  }
  // each curve reads its own parameters (NEST's GrowthCurve::set)
  given("eps", next.eps);
  if (next.curve == GrowthCurve::gaussian) given("eta", next.eta);
  if (next.curve == GrowthCurve::sigmoid) given("psi", next.psi);
  if (next.curve == GrowthCurve::sigmoid && !(next.psi >= 0))
    throw bad_value("synaptic element " + name + ": psi", next.psi, ">= 0");
  if (!(next.tau_vacant > 0)) throw bad_value("synaptic element " + name + ": tau_vacant", next.tau_vacant, "> 0");
  *this = next;
}

std::map<std::string, double> SynapticElement::get() const {
  std::map<std::string, double> out = {{"growth_rate", growth_rate},
                                       {"tau_vacant", tau_vacant},
                                       {"continuous", continuous ? 1.0 : 0.0},
                                       {"z", z},
                                       {"z_connected", double(z_connected)},
                                       {"growth_curve", double(int(curve))},
                                       {"eps", eps}};
  if (curve == GrowthCurve::gaussian) out["eta"] = eta;
  if (curve == GrowthCurve::sigmoid) out["psi"] = psi;
  return out;
}

void SynapticElement::append_to(std::vector<uint8_t>& out) const {
  const uint64_t length = name.size();
  const double fields[] = {
      z, double(z_connected), continuous ? 1.0 : 0.0, growth_rate, tau_vacant, double(int(curve)), eps, eta, psi};
  const auto* bytes = reinterpret_cast<const uint8_t*>(&length);
  out.insert(out.end(), bytes, bytes + sizeof length);
  out.insert(out.end(), name.begin(), name.end());
  bytes = reinterpret_cast<const uint8_t*>(fields);
  out.insert(out.end(), bytes, bytes + sizeof fields);
}

SynapticElement SynapticElement::read_from(const uint8_t*& p) {
  uint64_t length = 0;
  std::memcpy(&length, p, sizeof length);
  p += sizeof length;
  SynapticElement e;
  e.name.assign(reinterpret_cast<const char*>(p), length);
  p += length;
  double f[9];
  std::memcpy(f, p, sizeof f);
  p += sizeof f;
  e.z = f[0], e.z_connected = int64_t(f[1]), e.continuous = f[2] != 0.0, e.growth_rate = f[3], e.tau_vacant = f[4];
  e.curve = GrowthCurve(int(f[5])), e.eps = f[6], e.eta = f[7], e.psi = f[8];
  return e;
}

void StructuralState::advance(NeuronGroup& g, size_t i, double t, double h) {
  if (since.empty()) since.assign(g.size(), 0.0);
  double& ca = g.vars[size_t(calcium)][i];
  const double tau = g.vars[size_t(calcium) + 1][i];
  if (has_elements())
    for (SynapticElement& e : elements[i]) e.grow(since[i], t, ca, tau, h);
  ca = ca * std::exp((since[i] - t) / tau);
  since[i] = t;
}

void StructuralState::spike(NeuronGroup& g, size_t i, double t, double h) {
  advance(g, i, t, h);
  g.vars[size_t(calcium)][i] += g.vars[size_t(calcium) + 2][i];
}

SynapticElement* StructuralState::element(size_t i, const std::string& name) {
  if (!has_elements()) return nullptr;
  for (SynapticElement& e : elements[i])
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace ranvier
