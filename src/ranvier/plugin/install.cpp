#include "plugin/install.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <set>

#include "cable/mechanism_kind.hpp"
#include "core/errors.hpp"
#include "devices/device_model.hpp"
#include "plugin/module.hpp"
#include "synapses/synapse_model.hpp"

namespace ranvier {
namespace {

// A loaded library that is closed again unless kept (a module refused after loading).
struct Library {
  void* handle;
  ~Library() {
    if (handle) dlclose(handle);
  }
  template <typename F>
  F* symbol(const char* name) const {
    return reinterpret_cast<F*>(dlsym(handle, name));
  }
};

// Python loads the kernel with its symbols local to it; a module refers to them, so the kernel
// is made global (the already loaded copy: RTLD_NOLOAD) before a module loads.
void export_kernel_symbols() {
  Dl_info self;
  if (!dladdr(reinterpret_cast<void*>(&install_module), &self) || !self.dli_fname ||
      !dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL))
    throw KernelStateError("Install: the kernel cannot export its symbols to modules");
}

bool model_exists(const std::string& name) {
  return NeuronModels::instance().find(name) || DeviceModels::instance().find(name) ||
         SynapseBases::instance().find(name);
}

}  // namespace

const char* plugin_abi() { return RANVIER_PLUGIN_ABI; }

Installed install_module(const std::string& name, const std::string& path) {
  static std::set<std::string> installed;
  const std::string of = "Install(" + name + "): ";
  if (installed.count(name)) throw KernelStateError(of + "the module is installed already");
  export_kernel_symbols();
  Library library{dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)};
  if (!library.handle) throw KernelStateError(of + "cannot load " + path + ": " + dlerror());
  const auto abi = library.symbol<const char*()>("ranvier_module_abi");
  const auto contents = library.symbol<const ModuleContents*()>("ranvier_module_contents");
  if (!abi || !contents) throw KernelStateError(of + path + " is not a Ranvier module");
  if (std::string(abi()) != RANVIER_PLUGIN_ABI)
    throw KernelStateError(of + path + " was built for Ranvier " + abi() + ", this kernel is " + RANVIER_PLUGIN_ABI +
                           ": generate and build it again");
  Installed added;
  std::vector<std::string>& names = added.neuron_models;
  for (const NeuronModel* model : contents()->neuron_models) {
    const std::string model_name = model->name();
    if (model_exists(model_name) || std::find(names.begin(), names.end(), model_name) != names.end())
      throw KernelStateError(of + "model " + model_name + " exists already (a built-in or another module's)");
    names.push_back(model_name);
  }
  for (const auto& [synapse_name, base] : contents()->synapse_models) {
    if (model_exists(synapse_name) || std::find(names.begin(), names.end(), synapse_name) != names.end() ||
        std::find(added.synapse_models.begin(), added.synapse_models.end(), synapse_name) != added.synapse_models.end())
      throw KernelStateError(of + "model " + synapse_name + " exists already (a built-in or another module's)");
    added.synapse_models.push_back(synapse_name);
  }
  for (const cable::MechanismKind* mechanism : contents()->mechanisms) {
    const std::string mechanism_name = mechanism->declaration().name;
    if (cable::density_defaults(mechanism_name) || cable::synapse_defaults(mechanism_name) ||
        std::find(added.mechanisms.begin(), added.mechanisms.end(), mechanism_name) != added.mechanisms.end())
      throw KernelStateError(of + "mechanism " + mechanism_name + " exists already (a built-in or a loaded one)");
    added.mechanisms.push_back(mechanism_name);
  }
  for (const NeuronModel* model : contents()->neuron_models) NeuronModels::instance().add(model->name(), model);
  for (const cable::MechanismKind* mechanism : contents()->mechanisms) cable::add_compiled_mechanism(mechanism);
  for (const auto& [synapse_name, base] : contents()->synapse_models) {
    SynapseBases::instance().add(synapse_name, base);
    module_synapse_models().push_back(synapse_name);
  }
  installed.insert(name);
  library.handle = nullptr;  // kept: the kernel now refers to the module's models
  return added;
}

}  // namespace ranvier
