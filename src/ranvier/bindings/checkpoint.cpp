#include "bindings/checkpoint.hpp"

#include <nanobind/stl/string.h>

#include <map>
#include <string>
#include <vector>

#include "bindings/arrays.hpp"
#include "core/errors.hpp"

namespace nb = nanobind;
using namespace ranvier;

namespace {

template <class T>
using Column = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

template <class T>
void add_columns(std::map<std::string, std::vector<T>>& columns, nb::dict& out) {
  for (auto& [name, column] : columns) out[name.c_str()] = to_numpy(std::move(column));
}

nb::dict columns_of(Snapshot&& s) {
  nb::dict out;
  add_columns(s.ints, out), add_columns(s.reals, out), add_columns(s.u32, out), add_columns(s.u16, out);
  add_columns(s.u8, out);
  return out;
}

template <class T>
bool take(Snapshot& s, const std::string& name, nb::handle value) {
  Column<T> column;
  if (!nb::try_cast(value, column, false)) return false;
  s.columns<T>()[name].assign(column.data(), column.data() + column.shape(0));
  return true;
}

// Columns of the types the kernel wrote (Python keeps each column's type).
Snapshot snapshot_of(const nb::dict& columns) {
  Snapshot s;
  for (auto [key, value] : columns) {
    const std::string name = nb::cast<std::string>(key);
    if (!(take<int64_t>(s, name, value) || take<double>(s, name, value) || take<uint32_t>(s, name, value) ||
          take<uint16_t>(s, name, value) || take<uint8_t>(s, name, value)))
      throw BadParameterError("the checkpoint's column " + name + " has a type the kernel does not write");
  }
  return s;
}

}  // namespace

void bind_checkpoint(nb::class_<Kernel>& kernel) {
  kernel.def("snapshot", [](Kernel& k) { return columns_of(k.snapshot()); })
      .def("snapshot_connections", [](Kernel& k, size_t thread) { return columns_of(k.snapshot_connections(thread)); })
      .def("hosts_any",
           [](const Kernel& k, GidArray gids) { return k.hosts_any({gids.data(), gids.data() + gids.shape(0)}); })
      .def("stage_connections", [](Kernel& k, const nb::dict& columns) { k.stage_connections(snapshot_of(columns)); })
      .def("resume", [](Kernel& k, const nb::dict& columns) { k.resume(snapshot_of(columns)); })
      .def("restore_events", [](Kernel& k, uint32_t recorder, GidArray senders, Int64Array stamps, DoubleArray values) {
        RecordedEvents e;
        e.senders.assign(senders.data(), senders.data() + senders.shape(0));
        e.stamps.assign(stamps.data(), stamps.data() + stamps.shape(0));
        e.values.assign(values.data(), values.data() + values.shape(0));
        k.restore_events(recorder, std::move(e));
      });
}
