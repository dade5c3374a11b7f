// Device models in a registry: each declares its type, whether it stimulates or records,
// and its parameters with NEST's names and defaults (Python learns them from here).
#pragma once
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/registry.hpp"
#include "devices/device.hpp"

namespace ranvier {

using DeviceValue = std::variant<double, std::string, std::vector<double>, std::vector<std::string>>;

struct DeviceModel {
  DeviceType type;
  bool stimulator;
  std::vector<std::pair<std::string, DeviceValue>> parameters;  // name, default
};
using DeviceModels = Registry<DeviceModel>;

}  // namespace ranvier
