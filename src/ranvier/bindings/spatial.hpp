// Python binding of the spatial connection rules.
#pragma once
#include <nanobind/nanobind.h>

void bind_spatial(nanobind::module_& m);
