// The propagators of the integrate-and-fire models with exponential currents (NEST's
// iaf_psc_exp, iaf_tum_2000) over a step of h ms, by neuron: each current's decay, its effect on
// the membrane (NEST's IAFPropagatorExp), the membrane's decay and a constant current's effect.
#pragma once
#include <cmath>
#include <vector>

#include "models/iaf_common.hpp"
#include "models/propagators.hpp"

namespace ranvier::iaf_exp {

enum Propagator { P11_ex, P21_ex, P11_in, P21_in, P20, P22, n_propagators };

// Into g.internals, one value per neuron (the caller may share them afterwards).
inline void calibrate(NeuronGroup& g, double h) {
  using namespace iaf;
  g.internals.assign(n_propagators, std::vector<double>(g.size()));
  for (size_t i = 0; i < g.size(); ++i) {
    const double tm = g.vars[tau_m][i], cm = g.vars[C_m][i];
    const double te = g.vars[tau_syn_ex][i], ti = g.vars[tau_syn_in][i];
    g.internals[P11_ex][i] = std::exp(-h / te);
    g.internals[P21_ex][i] = nest_iaf_propagators(te, tm, cm, h).P32;
    g.internals[P11_in][i] = std::exp(-h / ti);
    g.internals[P21_in][i] = nest_iaf_propagators(ti, tm, cm, h).P32;
    g.internals[P22][i] = std::exp(-h / tm);
    g.internals[P20][i] = tm / cm * (1.0 - g.internals[P22][i]);  // NEST's, to the bit
  }
}

}  // namespace ranvier::iaf_exp
