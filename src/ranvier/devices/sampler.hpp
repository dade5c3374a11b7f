// A recorder that samples variables of its targets every `interval` ms from `offset` ms on
// (multimeter, voltmeter; NEST's times offset + k interval, within the activity window): record_from names them,
// location says where on a cable cell ([region, x]; empty: the cell's own variables). The bindings turn a location into
// Device::location (a cable cell's location: bindings/cable.cpp); the kernel checks it against the cells at Connect.
#pragma once
#include <algorithm>
#include <cmath>

#include "core/grid_times.hpp"
#include "devices/recorder_model.hpp"

namespace ranvier {

class Sampler : public RecorderModel {
 public:
  Records records() const final { return Records::samples; }
  std::vector<DeviceParameter> parameters(double) const final {
    return {{"interval", 1.0, "ms"},
            {"offset", 0.0, "ms"},
            {"record_from", default_record_from(), ""},
            {"location", std::vector<double>{}, ""}};
  }
  void check(const Device& d, double h) const final {
    const double interval = std::get<double>(value_of(d, "interval"));
    if (!whole_multiple(interval, h) || std::round(interval / h) < 1)
      throw bad_value("interval", interval, "a positive multiple of the resolution");
    const double offset = std::get<double>(value_of(d, "offset"));
    if (!whole_multiple(offset, h) || offset < 0)
      throw bad_value("offset", offset, "a multiple of the resolution >= 0");
  }
  void configure(Device& d, double h) const final {
    d.interval_steps = std::max<int64_t>(1, std::llround(std::get<double>(value_of(d, "interval")) / h));
    d.offset_steps = std::llround(std::get<double>(value_of(d, "offset")) / h);
    d.record_from = std::get<std::vector<std::string>>(value_of(d, "record_from"));
  }

 protected:
  virtual std::vector<std::string> default_record_from() const = 0;
};

}  // namespace ranvier
