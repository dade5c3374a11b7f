// Python binding of cable cells: a description dictionary into a cell kind, and Create.
#pragma once
#include <nanobind/nanobind.h>

#include <string>

#include "models/neuron_model.hpp"

void bind_cable(nanobind::module_& m);

// A location given as [region, x] or ["branch", index, x]; `what` names it in errors.
ranvier::CellLocation cell_location(nanobind::handle h, const std::string& what);
