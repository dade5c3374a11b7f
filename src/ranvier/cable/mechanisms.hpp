// The mechanisms of cable cells, as NEURON's hh.mod, passive.mod, expsyn.mod and exp2syn.mod:
// parameter names, defaults and units (hh's rates: lanes.hpp).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/unit.hpp"

namespace ranvier::cable {

// A mechanism's parameter as declared: NEURON's name, default and unit.
struct MechanismParameter {
  std::string name;
  double default_value;
  Unit unit;
};
using MechanismDeclarations = std::map<std::string, std::vector<MechanismParameter>>;
const MechanismDeclarations& density_declarations();  // hh, pas, loaded density mechanisms
const MechanismDeclarations& synapse_declarations();  // expsyn, exp2syn, loaded point processes

// Known parameters and their defaults, per model name (from the declarations); nullptr for an
// unknown model. Every mechanism by name, with its parameters and their defaults.
using Mechanisms = std::map<std::string, std::map<std::string, double>>;
const Mechanisms& density_mechanisms();                                           // hh, pas
const Mechanisms& synapse_mechanisms();                                           // expsyn, exp2syn
const std::map<std::string, double>* density_defaults(const std::string& model);  // hh, pas
const std::map<std::string, double>* synapse_defaults(const std::string& model);  // expsyn, exp2syn
const std::map<std::string, double>& ion_defaults();                              // e of na, k (the built-ins' ions)

// An ion's defaults as NEURON's (na, k, ca; another ion: e 0, concentrations 1 mM, and the
// valence its USEION gives).
struct IonDefaults {
  double e, inside, outside;  // mV, mM, mM
};
IonDefaults ion_values(const std::string& ion);
// NEURON's Nernst potential (mV) at celsius for the concentrations (mM) and valence.
double nernst(double inside, double outside, double valence, double celsius);

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
