#include "bindings/checkpoint.hpp"

#include <nanobind/stl/string.h>

#include <string>

#include "bindings/arrays.hpp"
#include "core/errors.hpp"

namespace nb = nanobind;
using namespace ranvier;

namespace {

using IntColumn = nb::ndarray<const int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using RealColumn = nb::ndarray<const double, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

nb::dict columns_of(Snapshot&& s) {
  nb::dict out;
  for (auto& [name, column] : s.ints) out[name.c_str()] = to_numpy(std::move(column));
  for (auto& [name, column] : s.reals) out[name.c_str()] = to_numpy(std::move(column));
  return out;
}

// Columns of int64 or float64 (Python casts each to its kind's type).
Snapshot snapshot_of(const nb::dict& columns) {
  Snapshot s;
  for (auto [key, value] : columns) {
    const std::string name = nb::cast<std::string>(key);
    IntColumn ints;
    RealColumn reals;
    if (nb::try_cast(value, ints, false))
      s.ints[name].assign(ints.data(), ints.data() + ints.shape(0));
    else if (nb::try_cast(value, reals, false))
      s.reals[name].assign(reals.data(), reals.data() + reals.shape(0));
    else
      throw BadParameterError("the checkpoint's column " + name + " is neither int64 nor float64");
  }
  return s;
}

}  // namespace

void bind_checkpoint(nb::class_<Kernel>& kernel) {
  kernel.def("snapshot", [](Kernel& k) { return columns_of(k.snapshot()); })
      .def("resume", [](Kernel& k, const nb::dict& columns) { k.resume(snapshot_of(columns)); })
      .def("restore_events", [](Kernel& k, uint32_t recorder, GidArray senders, Int64Array stamps, DoubleArray values) {
        RecordedEvents e;
        e.senders.assign(senders.data(), senders.data() + senders.shape(0));
        e.stamps.assign(stamps.data(), stamps.data() + stamps.shape(0));
        e.values.assign(values.data(), values.data() + values.shape(0));
        k.restore_events(recorder, std::move(e));
      });
}
