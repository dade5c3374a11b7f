// Python binding of the kernel's settings (kernel/settings.hpp): their declarations, the check
// of values given together, and Python values as setting values.
#pragma once
#include <nanobind/nanobind.h>

#include <string>
#include <utility>
#include <vector>

#include "kernel/settings.hpp"

// Python's {name: value} as the kernel's values (bools, ints and numpy scalars as their kind);
// a value of no setting type is a BadParameterError naming it.
std::vector<std::pair<std::string, ranvier::SettingValue>> setting_values(const nanobind::dict& values);

void bind_settings(nanobind::module_& m);
