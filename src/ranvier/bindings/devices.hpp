// Python binding of device parameters: values cross as Python objects, are converted to the
// type of each parameter's default and checked by the device's model, all or nothing.
#pragma once
#include <nanobind/nanobind.h>

#include "kernel/kernel.hpp"

// Sets params on the devices gids (the same values on each); a rejected value changes none.
void configure_devices(ranvier::Kernel& k, const std::vector<uint32_t>& gids, const nanobind::dict& params);
// A device parameter's value for Python; node ids as a tuple (Python shows a NodeCollection).
nanobind::object python_value(const ranvier::DeviceValue& value);
// The parameters of a device as the kernel holds them (GetStatus reads them here).
nanobind::dict device_parameters(ranvier::Kernel& k, uint32_t gid);
// Checks params (every parameter of a device model, e.g. its new defaults) as if set on a
// new device; throws what configure_devices would.
void check_device(const std::string& model, const nanobind::dict& params, double resolution, int64_t tics_per_ms);
