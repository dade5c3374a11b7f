// The mechanisms of cable cells, as NEURON's hh.mod, passive.mod, expsyn.mod and exp2syn.mod:
// parameter names and defaults, and hh's rate functions (without lookup tables, usetable_hh = 0).
#pragma once
#include <cmath>
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

// hh.mod: x/(exp(x/y) - 1) without the 0/0 at x = 0.
inline double vtrap(double x, double y) {
  return std::fabs(x / y) < 1e-6 ? y * (1.0 - x / y / 2.0) : x / (std::exp(x / y) - 1.0);
}

// Steady states and rates (1/tau, 1/ms) of hh's gates at v (mV), with q10 = 3^((celsius-6.3)/10).
struct HHRates {
  double minf, mrate, hinf, hrate, ninf, nrate;
};
inline HHRates hh_rates(double v, double q10) {
  HHRates r;
  double alpha = 0.1 * vtrap(-(v + 40.0), 10.0), beta = 4.0 * std::exp(-(v + 65.0) / 18.0);
  double sum = alpha + beta;
  r.mrate = q10 * sum;
  r.minf = alpha / sum;
  alpha = 0.07 * std::exp(-(v + 65.0) / 20.0);
  beta = 1.0 / (std::exp(-(v + 35.0) / 10.0) + 1.0);
  sum = alpha + beta;
  r.hrate = q10 * sum;
  r.hinf = alpha / sum;
  alpha = 0.01 * vtrap(-(v + 55.0), 10.0);
  beta = 0.125 * std::exp(-(v + 65.0) / 80.0);
  sum = alpha + beta;
  r.nrate = q10 * sum;
  r.ninf = alpha / sum;
  return r;
}

inline double hh_q10(double celsius) { return std::pow(3.0, (celsius - 6.3) / 10.0); }

}  // namespace ranvier::cable
