// Python binding of structural plasticity (kernel/structural_plasticity.hpp): neurons' synaptic
// elements as dicts of NEST's keys, the kernel's structural synapses, and its switch.
#pragma once
#include <nanobind/nanobind.h>

#include "kernel/kernel.hpp"

void bind_structural(nanobind::class_<ranvier::Kernel>& kernel);
