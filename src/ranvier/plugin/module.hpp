// The plugin boundary: what a module (a shared library that Install loads into a running kernel)
// includes, and the two functions it exports. A module is compiled against the headers installed
// with the kernel (ranvier/include in the wheel) and may use any of them; the ABI string ties it
// to exactly those headers, so a module built for another kernel is refused rather than
// misread. docs/dev/architecture.md ("Modules") describes the boundary.
#pragma once
#include <vector>

#include "cable/mechanism_kind.hpp"
#include "models/neuron_model.hpp"
#include "plugin_abi.hpp"  // generated at the kernel's build: RANVIER_PLUGIN_ABI
#include "synapses/synapse_model.hpp"

namespace ranvier {

// What a module adds to the kernel; the kernel keeps the module loaded for the process's life.
struct ModuleContents {
  std::vector<const NeuronModel*> neuron_models;
  std::vector<const cable::MechanismKind*> mechanisms;                     // a catalogue of NMODL mechanisms
  std::vector<std::pair<const char*, const SynapseBase*>> synapse_models;  // by name
};

}  // namespace ranvier

// One line at the end of a module's source: its neuron models (pointers to objects with static
// storage), e.g. RANVIER_MODULE(&my_model_a, &my_model_b); a catalogue's: its density mechanisms,
// RANVIER_CATALOGUE(&mechanism_a, &mechanism_b); with synapse models too:
// RANVIER_MODULE_CONTENTS({&my_model_a}, {}, {{"my_synapse", &my_synapse}}).
#define RANVIER_MODULE_CONTENTS(...)                                                                                \
  extern "C" __attribute__((visibility("default"))) const char* ranvier_module_abi() { return RANVIER_PLUGIN_ABI; } \
  extern "C" __attribute__((visibility("default"))) const ::ranvier::ModuleContents* ranvier_module_contents() {    \
    static const ::ranvier::ModuleContents contents{__VA_ARGS__};                                                   \
    return &contents;                                                                                               \
  }
#define RANVIER_MODULE(...) RANVIER_MODULE_CONTENTS({__VA_ARGS__}, {}, {})
#define RANVIER_CATALOGUE(...) RANVIER_MODULE_CONTENTS({}, {__VA_ARGS__}, {})
