// The mechanisms of cable cells, as NEURON's hh.mod, passive.mod, expsyn.mod and exp2syn.mod:
// parameter names and defaults (hh's rates: lanes.hpp).
#pragma once
#include <map>
#include <string>

namespace ranvier::cable {

// Known parameters and their defaults, per model name; nullptr for an unknown model.
const std::map<std::string, double>* density_defaults(const std::string& model);  // hh, pas
const std::map<std::string, double>* synapse_defaults(const std::string& model);  // expsyn, exp2syn
const std::map<std::string, double>& ion_defaults();                              // na, k

// A parameter's value: given, or the model's default.
double param_or_default(const std::map<std::string, double>& given, const std::map<std::string, double>& defaults,
                        const std::string& name);

// Exp2Syn's INITIAL: tau1 kept below tau2, and the factor that makes the peak conductance of a
// weight-1 event equal to 1.
struct Exp2Factor {
  double tau1, tau2, factor;
};
Exp2Factor exp2syn_factor(double tau1, double tau2);

}  // namespace ranvier::cable
