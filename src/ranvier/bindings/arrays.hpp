// The numpy arrays the bindings take: one-dimensional, contiguous, on the CPU.
#pragma once
#include <cstdint>
#include <utility>
#include <variant>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include "core/gid_list.hpp"

namespace ranvier {

using GidArray = nanobind::ndarray<const uint32_t, nanobind::ndim<1>, nanobind::c_contig, nanobind::device::cpu>;
using DoubleArray = nanobind::ndarray<const double, nanobind::ndim<1>, nanobind::c_contig, nanobind::device::cpu>;
using Int64Array = nanobind::ndarray<const int64_t, nanobind::ndim<1>, nanobind::c_contig, nanobind::device::cpu>;
// values of any shape (weights and delays given per connection)
using ShapedArray = nanobind::ndarray<const double, nanobind::c_contig, nanobind::device::cpu>;

inline std::vector<uint32_t> gids_of(const GidArray& a) { return {a.data(), a.data() + a.shape(0)}; }

// One side of a Connect call as Python hands it over: an array of node ids, seen in place for
// the call, or consecutive ids as (first, count).
using GidsArg = std::variant<GidArray, std::pair<uint32_t, uint64_t>>;
inline GidList gid_list_of(const GidsArg& a) {
  if (const auto* range = std::get_if<std::pair<uint32_t, uint64_t>>(&a))
    return GidList::range(range->first, size_t(range->second));
  const GidArray& ids = std::get<GidArray>(a);
  return GidList::view(ids.data(), ids.shape(0));
}

// A vector handed to numpy without a copy (the array owns it), in the given shape (default: flat).
template <typename T>
nanobind::object to_numpy(std::vector<T>&& v, std::vector<size_t> shape = {}) {
  auto* owned = new std::vector<T>(std::move(v));
  nanobind::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  if (shape.empty()) shape = {owned->size()};
  return nanobind::cast(nanobind::ndarray<nanobind::numpy, T>(owned->data(), shape.size(), shape.data(), owner));
}

}  // namespace ranvier
