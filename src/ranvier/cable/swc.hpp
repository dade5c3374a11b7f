// Morphologies from SWC files (id, tag, x, y, z, radius, parent per line).
#pragma once
#include <string>
#include <vector>

#include "cable/description.hpp"

namespace ranvier::cable {

// The file's tree as branches: a branch starts at the root, at every fork and where the tag
// changes, and is named by its tag (1 soma, 2 axon, 3 dend, 4 apic, else "tag<N>"). A branch runs
// from its parent sample through its samples (NEURON's Import3d: the 3D points of a section), a
// cylinder where they all have one diameter, else tapered through them. A soma of one sample is
// a cylinder of length and diameter 2r, its children attached at its middle (NEURON's Import3d).
std::vector<Branch> read_swc(const std::string& path);

// The branches named "axon" (and any branch below one) removed and `stub` put in their place,
// a chain from the root's middle (AllenSDK's and BMTK's perisomatic models: connect axon[0](0),
// soma(0.5); axon[1](0), axon[0](1)).
void replace_axon(std::vector<Branch>& branches, const std::vector<Branch>& stub);

}  // namespace ranvier::cable
