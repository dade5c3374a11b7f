// Install: loads a module (plugin/module.hpp) and registers its models, as NEST's Install does
// for an extension module.
#pragma once
#include <string>
#include <vector>

namespace ranvier {

// What a module added: its neuron models', density mechanisms' and synapse models' names.
struct Installed {
  std::vector<std::string> neuron_models, mechanisms, synapse_models;
};

// Loads the shared library at `path` as module `name` and registers what it holds. Throws KernelStateError (NEST's
// DynamicModuleManagementError) where the module is installed already, cannot be loaded, is not a Ranvier module, was
// built for other kernel headers, or names a model or mechanism that exists; nothing is registered then.
Installed install_module(const std::string& name, const std::string& path);

// The ABI string this kernel was built with (modules must carry the same).
const char* plugin_abi();

}  // namespace ranvier
