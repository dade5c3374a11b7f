// Python binding of NEST's compartmental model cm_default: its compartments and receptors set
// and read as NEST's dicts.
#pragma once
#include <nanobind/nanobind.h>

#include "models/neuron_model.hpp"

void bind_cm(nanobind::module_& m);

// A cm model's defaults gain its (empty) compartments and receptors, as NEST's GetDefaults shows.
void add_cm_defaults(const ranvier::NeuronModel& model, nanobind::dict& defaults);
