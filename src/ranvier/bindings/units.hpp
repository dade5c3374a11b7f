// Python binding of the units the kernel declares with each parameter (ranvier.units).
#pragma once
#include <nanobind/nanobind.h>

void bind_units(nanobind::module_& m);
