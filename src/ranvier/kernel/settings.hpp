// The kernel's settings (SetKernelStatus / GetKernelStatus), each declared once: its name,
// type, unit, range or choices, until when it may change (its phase), where it lives in a
// KernelConfig (its default is that field's initialiser) and how a running kernel takes it. The bindings, Python's
// checks and the docs' settings table all read this table.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "kernel/config.hpp"

namespace ranvier {

class Kernel;

using SettingValue = std::variant<int64_t, double, bool, std::string>;

enum class SettingType { integer, real, boolean, text };

// Until when a setting may change: while the kernel is empty (a new kernel is built with it),
// until the first connection (NEST's delay extrema), or at any time.
enum class SettingPhase { empty_kernel, before_connections, any_time };

struct Setting {
  const char* name;
  SettingType type;
  const char* unit;  // "" without one
  // integer and real: the closed range [low, high]
  double low = 0.0, high = 0.0;
  // text: the values it takes (the exchange methods' names are read from their registry)
  std::vector<std::string> (*choices)() = nullptr;
  SettingPhase phase = SettingPhase::empty_kernel;
  SettingValue (*get)(const KernelConfig&) = nullptr;
  void (*put)(KernelConfig&, const SettingValue&) = nullptr;
  // the running kernel's setter where changing it does more than write its field
  void (*apply)(Kernel&, const SettingValue&) = nullptr;
  bool takes_whole_real = false;  // integer: also a real with a whole value
  const char* alias = nullptr;    // another name NEST accepts for it
  const char* doc = "";
};

// Every setting, in the order of the docs' table.
const std::vector<Setting>& kernel_settings();

// The setting of a name or alias; UnknownParameterError names it.
const Setting& kernel_setting(const std::string& name);

// What a value of the setting must be, for errors: "an integer in [1, 2]".
std::string setting_rule(const Setting& s);

// `value` checked against the setting's type and range (an integer given for a real is taken);
// BadParameterError names `given` (the name as the
// user wrote it) and the value.
SettingValue checked_setting(const Setting& s, const SettingValue& value, const std::string& given);

// Values given together (SetKernelStatus), each checked, under their settings' names; with
// NEST's rule between two of them: tics_per_ms only together with resolution.
std::vector<std::pair<std::string, SettingValue>> checked_settings(
    const std::vector<std::pair<std::string, SettingValue>>& given);

// The rules between settings of one config (min_delay <= max_delay, both at least the
// resolution); BadParameterError names the values.
void check_config(const KernelConfig& c);
// NEST checks the e-prop learning window against the update interval where the window is set.
void check_eprop_window(const std::vector<std::pair<std::string, SettingValue>>& values, const KernelConfig& c);

// A config whose named fields are those given (each checked), the others their defaults.
KernelConfig config_from(const std::vector<std::pair<std::string, SettingValue>>& values);

}  // namespace ranvier
