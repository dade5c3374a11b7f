// The unit of a declared parameter or state variable, as NEST's model documentation writes it
// ("mV", "pA/ms", "S/cm2"; "" for a dimensionless one). Python learns it from the declaration
// (ranvier.units). It has no default, so a declaration without its unit does not compile.
#pragma once

namespace ranvier {

struct Unit {
  constexpr Unit(const char* symbol) : symbol(symbol) {}  // implicit: a declaration writes "mV"
  const char* symbol;
};

// A synaptic weight's unit is its target's input: pA (current-based), nS (conductance-based)
// or mV (iaf_psc_delta); so are Wmax and a spike_generator's spike_weights.
inline constexpr const char* weight_unit = "pA, nS or mV";

}  // namespace ranvier
