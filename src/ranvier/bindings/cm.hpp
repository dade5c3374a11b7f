// Python binding of NEST's compartmental model cm_default: its compartments and receptors set
// and read as NEST's dicts.
#pragma once
#include <nanobind/nanobind.h>

#include <vector>

#include "models/neuron_model.hpp"

void bind_cm(nanobind::module_& m);

// The names a cm model's defaults gain beyond its variables: compartments and receptors (lists of
// dicts, empty by default, as NEST's GetDefaults shows them); none for other models.
std::vector<const char*> cm_structure_names(const ranvier::NeuronModel& model);
