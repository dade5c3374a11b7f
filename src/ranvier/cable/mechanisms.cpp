#include "cable/mechanisms.hpp"

#include <cmath>

namespace ranvier::cable {

const std::map<std::string, double>* density_defaults(const std::string& model) {
  static const std::map<std::string, std::map<std::string, double>> table = {
      {"hh", {{"gnabar", 0.12}, {"gkbar", 0.036}, {"gl", 0.0003}, {"el", -54.3}}},  // S/cm², mV
      {"pas", {{"g", 0.001}, {"e", -70.0}}},
  };
  const auto it = table.find(model);
  return it == table.end() ? nullptr : &it->second;
}

const std::map<std::string, double>* synapse_defaults(const std::string& model) {
  static const std::map<std::string, std::map<std::string, double>> table = {
      {"expsyn", {{"tau", 0.1}, {"e", 0.0}}},  // ms, mV
      {"exp2syn", {{"tau1", 0.1}, {"tau2", 10.0}, {"e", 0.0}}},
  };
  const auto it = table.find(model);
  return it == table.end() ? nullptr : &it->second;
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
