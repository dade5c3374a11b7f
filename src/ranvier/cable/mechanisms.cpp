#include "cable/mechanisms.hpp"

#include <cmath>

namespace ranvier::cable {

const MechanismDeclarations& density_declarations() {
  static const MechanismDeclarations table = {
      {"hh", {{"gnabar", 0.12, "S/cm2"}, {"gkbar", 0.036, "S/cm2"}, {"gl", 0.0003, "S/cm2"}, {"el", -54.3, "mV"}}},
      {"pas", {{"g", 0.001, "S/cm2"}, {"e", -70.0, "mV"}}},
  };
  return table;
}

const MechanismDeclarations& synapse_declarations() {
  static const MechanismDeclarations table = {
      {"expsyn", {{"tau", 0.1, "ms"}, {"e", 0.0, "mV"}}},
      {"exp2syn", {{"tau1", 0.1, "ms"}, {"tau2", 10.0, "ms"}, {"e", 0.0, "mV"}}},
  };
  return table;
}

namespace {

Mechanisms defaults_of(const MechanismDeclarations& declared) {
  Mechanisms out;
  for (const auto& [model, parameters] : declared)
    for (const MechanismParameter& p : parameters) out[model][p.name] = p.default_value;
  return out;
}

const std::map<std::string, double>* defaults_in(const Mechanisms& table, const std::string& model) {
  const auto it = table.find(model);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace

const Mechanisms& density_mechanisms() {
  static const Mechanisms table = defaults_of(density_declarations());
  return table;
}

const Mechanisms& synapse_mechanisms() {
  static const Mechanisms table = defaults_of(synapse_declarations());
  return table;
}

const std::map<std::string, double>* density_defaults(const std::string& model) {
  return defaults_in(density_mechanisms(), model);
}

const std::map<std::string, double>* synapse_defaults(const std::string& model) {
  return defaults_in(synapse_mechanisms(), model);
}

const std::map<std::string, double>& ion_defaults() {
  static const std::map<std::string, double> table = {{"na", 50.0}, {"k", -77.0}};
  return table;
}

double param_or_default(const std::map<std::string, double>& given, const std::map<std::string, double>& defaults,
                        const std::string& name) {
  const auto it = given.find(name);
  return it == given.end() ? defaults.at(name) : it->second;
}

Exp2Factor exp2syn_factor(double tau1, double tau2) {
  if (tau1 / tau2 > 0.9999) tau1 = 0.9999 * tau2;
  if (tau1 / tau2 < 1e-9) tau1 = tau2 * 1e-9;
  const double tp = (tau1 * tau2) / (tau2 - tau1) * std::log(tau2 / tau1);  // time of the peak
  return {tau1, tau2, 1.0 / (-std::exp(-tp / tau1) + std::exp(-tp / tau2))};
}

}  // namespace ranvier::cable
