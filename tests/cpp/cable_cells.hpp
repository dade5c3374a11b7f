// Cable-cell descriptions shared by the cable tests.
#pragma once
#include "cable/description.hpp"

namespace ranvier::cable::testing {

// One cylinder, one CV, passive membrane: an isopotential cell.
inline Description single_compartment(double g_pas, double e_pas) {
  Description d;
  d.branches = {{"soma", -1, 1.0, 20.0, 20.0, 1}};
  if (g_pas > 0) d.densities = {{"pas", 0, {{"g", g_pas}, {"e", e_pas}}}};
  d.detector = {0, 0.5};
  return d;
}

// NEURON's ball and stick: soma (hh) with a passive dendrite attached at soma(1).
inline Description ball_and_stick(uint32_t dend_cvs) {
  Description d;
  d.branches = {{"soma", -1, 1.0, 20.0, 20.0, 1}, {"dend", 0, 1.0, 200.0, 1.0, dend_cvs}};
  d.Ra = 100.0;
  d.densities = {{"hh", 0, {}}, {"pas", 1, {{"g", 0.001}, {"e", -65.0}}}};
  d.synapses = {{"syn", "expsyn", {1, 0.5}, {{"tau", 2.0}}},
                {"ampa", "exp2syn", {1, 0.9}, {{"tau1", 0.5}, {"tau2", 2.0}}}};
  d.detector = {0, 0.5};
  d.clamps = {{{0, 0.5}, 10.0, 20.0, 0.2}};
  return d;
}

}  // namespace ranvier::cable::testing
