// The engine against NEURON 9 on the same cells, CVs and dt (fixture written by
// benchmarks/peers/neuron_cable_engine.py, which describes the two cells).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cable/cable_group.hpp"

namespace ranvier::cable {
namespace {

struct Trace {
  size_t stride = 1;
  std::vector<std::vector<double>> rows;  // voltages at the probes every stride-th step
  std::vector<double> spikes;
};

Trace read_case(const std::string& name) {
  std::ifstream in(RANVIER_FIXTURES "/neuron_cable_engine.txt");
  EXPECT_TRUE(in.good()) << "no fixture";
  Trace trace;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string kind, which;
    words >> kind >> which;
    if (which != name) continue;
    if (kind == "case") {
      size_t rows, columns;
      words >> rows >> columns >> trace.stride;
      trace.rows.assign(rows, std::vector<double>(columns));
      for (auto& row : trace.rows)
        for (double& v : row) in >> v;
    } else if (kind == "spikes") {
      for (double t; words >> t;) trace.spikes.push_back(t);
    }
  }
  return trace;
}

struct Event {
  double time;
  size_t port;
  double weight;
};

// Runs one cell as NEURON does: an event is delivered before the first step whose midpoint
// t + dt/2 is at or after its time. Compares the probes with NEURON's trace.
void compare(const std::shared_ptr<const Description>& d, const std::vector<Location>& probes,
             std::vector<Event> events, const Trace& nrn) {
  ASSERT_FALSE(nrn.rows.empty());
  ASSERT_EQ(nrn.rows[0].size(), probes.size());
  CableGroup group(d, 1);
  std::vector<std::pair<uint32_t, double>> spikes;
  double worst = 0;
  const int steps = int((nrn.rows.size() - 1) * nrn.stride);
  for (int s = 0; s <= steps; ++s) {
    if (s % nrn.stride == 0)
      for (size_t p = 0; p < probes.size(); ++p) {
        const double diff = std::fabs(group.voltage(0, group.cv_of(probes[p])) - nrn.rows[s / nrn.stride][p]);
        worst = std::max(worst, diff);
        ASSERT_LT(diff, 1e-7) << "step " << s << " probe " << p;
      }
    const double t = s * d->dt;
    for (Event& e : events)
      if (e.time >= 0 && e.time <= t + d->dt / 2) group.add_event(0, e.port, e.weight, t), e.time = -1;
    group.step(t, spikes);
  }
  std::printf("largest difference to NEURON: %.2e mV\n", worst);
  // NEURON's fixed step reports the end of the step in which v crosses; we interpolate within it.
  ASSERT_EQ(spikes.size(), nrn.spikes.size());
  for (size_t k = 0; k < spikes.size(); ++k) {
    EXPECT_LE(spikes[k].second, nrn.spikes[k] + 1e-9);
    EXPECT_GT(spikes[k].second, nrn.spikes[k] - d->dt - 1e-9);
  }
}

std::vector<Event> events_at(const std::vector<double>& times, double offset, size_t port, double weight) {
  std::vector<Event> events;
  for (double t : times) events.push_back({t + offset, port, weight});
  return events;
}

TEST(CableNeuron, BallAndStick) {
  auto d = std::make_shared<Description>();
  d->branches = {{"soma", -1, 1.0, 20, 20, 1}, {"dend", 0, 1.0, 200, 1, 7}};
  d->Ra = 100;
  d->densities = {{"hh", 0, {}}, {"pas", 1, {{"g", 0.001}, {"e", -65.0}}}};
  d->synapses = {{"syn", "expsyn", {1, 0.5}, {{"tau", 2.0}}},
                 {"syn2", "exp2syn", {1, 0.9}, {{"tau1", 0.5}, {"tau2", 2.0}}}};
  d->clamps = {{{0, 0.5}, 10, 20, 0.2}};
  const std::vector<double> times = {2.0, 5.0, 40.0, 41.3};
  std::vector<Event> events = events_at(times, 0.0, 0, 0.01), second = events_at(times, 0.5, 1, 0.005);
  events.insert(events.end(), second.begin(), second.end());
  compare(d, {{0, 0.5}, {1, 0.5}, {1, 0.9}}, events, read_case("ball_and_stick"));
}

TEST(CableNeuron, BranchedTreeWithEndNodes) {
  auto d = std::make_shared<Description>();
  d->branches = {{"soma", -1, 1, 20, 20, 3}, {"d1", 0, 1.0, 150, 2, 4},  {"d2", 0, 1.0, 100, 1, 2},
                 {"d3", 0, 0.5, 80, 1.5, 3}, {"d4", 1, 0.0, 60, 0.8, 2}, {"d5", 0, 0.0, 120, 1, 2},
                 {"d6", 3, 0.3, 50, 0.7, 1}};
  d->Ra = 80;
  d->cm = 0.9;
  d->celsius = 18.5;
  d->ion_e = {{"na", 55}, {"k", -80}};
  d->densities = {{"hh", 0, {}}, {"hh", 3, {{"gnabar", 0.05}}}};
  for (uint32_t b = 1; b < 7; ++b) d->densities.push_back({"pas", b, {{"g", 0.0005}, {"e", -62}}});
  d->synapses = {{"syn", "expsyn", {2, 1.0}, {{"tau", 1.5}}},
                 {"syn2", "exp2syn", {4, 0.7}, {{"tau1", 0.3}, {"tau2", 3}}}};
  d->clamps = {{{5, 1.0}, 3, 10, 0.3}};
  const std::vector<double> times = {1.0, 20.0, 21.0};
  std::vector<Event> events = events_at(times, 0.0, 0, 0.02), second = events_at(times, 0.3, 1, 0.01);
  events.insert(events.end(), second.begin(), second.end());
  compare(d, {{0, 0.5}, {1, 0.6}, {2, 1.0}, {3, 0.5}, {4, 0.7}, {5, 1.0}, {6, 0.5}, {0, 1.0}}, events,
          read_case("tree"));
}

}  // namespace
}  // namespace ranvier::cable
