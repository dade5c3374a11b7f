// Python binding of checkpoints: a rank's snapshot as a dict of numpy columns, and back.
#pragma once
#include <nanobind/nanobind.h>

#include "kernel/kernel.hpp"

void bind_checkpoint(nanobind::class_<ranvier::Kernel>& kernel);
