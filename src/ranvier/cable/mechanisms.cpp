#include "cable/mechanisms.hpp"

#include <algorithm>
#include <cmath>

#include "cable/mechanism_kind.hpp"
#include "core/errors.hpp"

namespace ranvier::cable {

namespace {

// The built-ins, and compiled mechanisms as they are added.
MechanismDeclarations& density_table() {
  static MechanismDeclarations table = {
      {"hh", {{"gnabar", 0.12, "S/cm2"}, {"gkbar", 0.036, "S/cm2"}, {"gl", 0.0003, "S/cm2"}, {"el", -54.3, "mV"}}},
      {"pas", {{"g", 0.001, "S/cm2"}, {"e", -70.0, "mV"}}},
  };
  return table;
}

MechanismDeclarations& synapse_table() {
  static MechanismDeclarations table = {
      {"expsyn", {{"tau", 0.1, "ms"}, {"e", 0.0, "mV"}}},
      {"exp2syn", {{"tau1", 0.1, "ms"}, {"tau2", 10.0, "ms"}, {"e", 0.0, "mV"}}},
  };
  return table;
}

std::map<std::string, const MechanismKind*>& compiled_table() {
  static std::map<std::string, const MechanismKind*> table;
  return table;
}

std::vector<const MechanismKind*>& compiled_in_order() {
  static std::vector<const MechanismKind*> order;
  return order;
}

}  // namespace

const MechanismDeclarations& density_declarations() { return density_table(); }
const MechanismDeclarations& synapse_declarations() { return synapse_table(); }

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

Mechanisms& density_defaults_table() {
  static Mechanisms table = defaults_of(density_declarations());
  return table;
}

Mechanisms& synapse_defaults_table() {
  static Mechanisms table = defaults_of(synapse_declarations());
  return table;
}

}  // namespace

const Mechanisms& density_mechanisms() { return density_defaults_table(); }

const MechanismKind* compiled_mechanism(const std::string& name) {
  const auto it = compiled_table().find(name);
  return it == compiled_table().end() ? nullptr : it->second;
}

void add_compiled_mechanism(const MechanismKind* kind) {
  const MechanismDeclaration& declared = kind->declaration();
  if (density_table().count(declared.name) || synapse_table().count(declared.name))
    throw BadParameterError("mechanism " + declared.name + " exists already (a built-in or a loaded one)");
  // a point process is a synapse model, a density mechanism a region's
  (declared.point ? synapse_table() : density_table())[declared.name] = declared.parameters;
  (declared.point ? synapse_defaults_table() : density_defaults_table())[declared.name] =
      defaults_of({{declared.name, declared.parameters}})[declared.name];
  compiled_table()[declared.name] = kind;
  compiled_in_order().push_back(kind);
}

size_t compiled_mechanism_order(const MechanismKind* kind) {
  const auto& order = compiled_in_order();
  return size_t(std::find(order.begin(), order.end(), kind) - order.begin());
}

const Mechanisms& synapse_mechanisms() { return synapse_defaults_table(); }

const std::map<std::string, double>* density_defaults(const std::string& model) {
  return defaults_in(density_mechanisms(), model);
}

const std::map<std::string, double>* synapse_defaults(const std::string& model) {
  return defaults_in(synapse_mechanisms(), model);
}

const std::map<std::string, double>& ion_defaults() {
  static const std::map<std::string, double> table = {{"na", ion_values("na").e}, {"k", ion_values("k").e}};
  return table;
}

IonDefaults ion_values(const std::string& ion) {
  if (ion == "na") return {50.0, 10.0, 140.0};
  if (ion == "k") return {-77.0, 54.4, 2.5};
  if (ion == "ca") return {132.4579341637009, 5e-5, 2.0};  // e: Nernst at 6.3 degC, as NEURON's default
  return {0.0, 1.0, 1.0};
}

double nernst(double inside, double outside, double valence, double celsius) {
  // NEURON 9's constants (CODATA 2018): R in J/(K mol), Faraday's in C/mol.
  constexpr double R = 8.31446261815324, faraday = 96485.33212331001;
  return 1000.0 * R * (celsius + 273.15) / (faraday * valence) * std::log(outside / inside);
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
