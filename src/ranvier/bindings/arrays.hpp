// The numpy arrays the bindings take: one-dimensional, contiguous, on the CPU.
#pragma once
#include <cstdint>

#include <nanobind/ndarray.h>

namespace ranvier {

using GidArray = nanobind::ndarray<const uint32_t, nanobind::ndim<1>, nanobind::c_contig, nanobind::device::cpu>;
using DoubleArray = nanobind::ndarray<const double, nanobind::ndim<1>, nanobind::c_contig, nanobind::device::cpu>;
using Int64Array = nanobind::ndarray<const int64_t, nanobind::ndim<1>, nanobind::c_contig, nanobind::device::cpu>;
// values of any shape (weights and delays given per connection)
using ShapedArray = nanobind::ndarray<const double, nanobind::c_contig, nanobind::device::cpu>;

}  // namespace ranvier
