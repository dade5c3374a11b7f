#include "cable/swc.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "core/errors.hpp"

namespace ranvier::cable {
namespace {

struct Sample {
  int tag;
  double x, y, z, r;
  int parent;  // index into the samples, -1 for the root
};

std::string region_of(int tag) {
  switch (tag) {
    case 1:
      return "soma";
    case 2:
      return "axon";
    case 3:
      return "dend";
    case 4:
      return "apic";
    default:
      return "tag" + std::to_string(tag);
  }
}

std::vector<Sample> read_samples(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw BadParameterError("morphology: cannot read SWC file " + path);
  std::vector<Sample> samples;
  std::map<long, int> index_of_id;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    long id, parent;
    Sample s{};
    if (!(fields >> id)) continue;  // blank or comment
    if (!(fields >> s.tag >> s.x >> s.y >> s.z >> s.r >> parent))
      throw BadParameterError(path + " line " + std::to_string(number) + ": expected id tag x y z radius parent");
    if (parent == -1) {
      if (!samples.empty()) throw BadParameterError(path + " line " + std::to_string(number) + ": a second root");
      s.parent = -1;
    } else {
      const auto it = index_of_id.find(parent);
      if (it == index_of_id.end())
        throw BadParameterError(path + " line " + std::to_string(number) + ": parent " + std::to_string(parent) +
                                " is not an earlier sample");
      s.parent = it->second;
    }
    if (!(s.r > 0)) throw BadParameterError(path + " line " + std::to_string(number) + ": radius must be > 0");
    if (!index_of_id.emplace(id, int(samples.size())).second)
      throw BadParameterError(path + " line " + std::to_string(number) + ": sample id " + std::to_string(id) +
                              " is used twice (an SWC file numbers each sample once)");
    samples.push_back(s);
  }
  if (samples.empty()) throw BadParameterError("morphology: SWC file " + path + " has no samples");
  return samples;
}

double distance(const Sample& a, const Sample& b) { return std::hypot(a.x - b.x, a.y - b.y, a.z - b.z); }

}  // namespace

std::vector<Branch> read_swc(const std::string& path) {
  const std::vector<Sample> s = read_samples(path);
  std::vector<int> children(s.size(), 0);
  for (const Sample& x : s)
    if (x.parent >= 0) ++children[size_t(x.parent)];
  const bool point_soma = s[0].tag == 1 && (s.size() == 1 || s[1].parent != 0 || s[1].tag != 1);
  // A sample starts a branch when its parent forks, ends the root, or has another tag.
  std::vector<int> branch_of(s.size(), -1);
  std::vector<Branch> branches;
  std::vector<std::vector<std::pair<double, double>>> points;  // per branch: (path length, diameter)
  for (size_t i = 0; i < s.size(); ++i) {
    const int p = s[i].parent;
    const bool starts = p < 0 || children[size_t(p)] > 1 || s[size_t(p)].tag != s[i].tag || (point_soma && p == 0);
    if (starts) {
      Branch b;
      b.name = region_of(s[i].tag);
      b.parent = p < 0 ? -1 : branch_of[size_t(p)];
      b.parent_x = point_soma && p == 0 ? 0.5 : 1.0;
      branch_of[i] = int(branches.size());
      branches.push_back(b);
      // It starts at its parent sample (NEURON's Import3d: a child's first 3D point is its
      // parent's last), or at itself after a one-sample soma or at the root.
      const bool from_parent = p >= 0 && !(point_soma && p == 0);
      points.push_back({{0.0, 2.0 * (from_parent ? s[size_t(p)].r : s[i].r)}});
      if (p < 0 && point_soma) branches.back().length = branches.back().diameter = 2.0 * s[i].r;
    } else {
      branch_of[i] = branch_of[size_t(p)];
    }
    // The segment from the parent sample, unless the parent is a one-sample soma.
    if (p >= 0 && !(point_soma && p == 0)) {
      Branch& b = branches[size_t(branch_of[i])];
      b.length += distance(s[i], s[size_t(p)]);
      points[size_t(branch_of[i])].emplace_back(b.length, 2.0 * s[i].r);
    }
  }
  for (size_t b = 0; b < branches.size(); ++b) {
    if (b == 0 && point_soma) continue;
    if (!(branches[b].length > 0))
      throw BadParameterError("morphology: SWC branch " + std::to_string(b) + " (" + branches[b].name +
                              ") has zero length");
    // A cylinder where every sample has the same diameter, else tapered through the samples.
    Branch& branch = branches[b];
    branch.diameter = points[b][0].second;
    const bool tapered = std::any_of(points[b].begin(), points[b].end(),
                                     [&](const auto& point) { return point.second != branch.diameter; });
    for (const auto& [path, diameter] : points[b])
      if (tapered) branch.taper.emplace_back(path / branch.length, diameter);
  }
  return branches;
}

void replace_axon(std::vector<Branch>& branches, const std::vector<Branch>& stub) {
  std::vector<Branch> kept;
  std::vector<int> new_index(branches.size(), -1);  // parents precede their children
  for (size_t b = 0; b < branches.size(); ++b) {
    Branch branch = branches[b];
    const bool below_removed = branch.parent >= 0 && new_index[size_t(branch.parent)] < 0;
    if (branch.name == "axon" || below_removed) continue;
    if (branch.parent >= 0) branch.parent = new_index[size_t(branch.parent)];
    new_index[b] = int(kept.size());
    kept.push_back(std::move(branch));
  }
  if (kept.empty()) throw BadParameterError("morphology replace_axon: the root is an axon, nothing would be left");
  for (size_t k = 0; k < stub.size(); ++k) {
    Branch piece = stub[k];
    piece.parent = k == 0 ? 0 : int(kept.size()) - 1;
    piece.parent_x = k == 0 ? 0.5 : 1.0;
    kept.push_back(std::move(piece));
  }
  branches = std::move(kept);
}

}  // namespace ranvier::cable
