// The node ids of one side of a Connect call, without a copy of the caller's: a range of
// consecutive ids (what Create made; nothing is stored, whatever the population's size), a
// view of the caller's array (numpy's, alive for the call), or ids it owns (requests the
// kernel makes itself). One rank of many holds about as many neurons as any other however
// large the network, so nothing of a whole population may be kept per rank.
#pragma once
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <vector>

namespace ranvier {

class GidList {
 public:
  GidList() = default;
  GidList(std::vector<uint32_t> ids)  // NOLINT(google-explicit-constructor): owned ids, as a vector converts
      : owned_(std::make_shared<const std::vector<uint32_t>>(std::move(ids))),
        data_(owned_->data()),
        size_(owned_->size()) {}
  static GidList range(uint32_t first, size_t n) {
    GidList l;
    l.first_ = first, l.size_ = n;
    return l;
  }
  static GidList view(const uint32_t* ids, size_t n) {
    GidList l;
    l.data_ = ids, l.size_ = n;
    return l;
  }

  uint32_t operator[](size_t i) const { return data_ ? data_[i] : first_ + uint32_t(i); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint32_t front() const { return (*this)[0]; }
  uint32_t back() const { return (*this)[size_ - 1]; }
  std::vector<uint32_t> to_vector() const { return {begin(), end()}; }

  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = uint32_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = uint32_t;
    iterator() = default;
    iterator(const GidList* l, size_t i) : l_(l), i_(difference_type(i)) {}
    uint32_t operator*() const { return (*l_)[size_t(i_)]; }
    uint32_t operator[](difference_type d) const { return (*l_)[size_t(i_ + d)]; }
    iterator& operator++() { return ++i_, *this; }
    iterator operator++(int) { return {l_, size_t(i_++)}; }
    iterator& operator--() { return --i_, *this; }
    iterator operator--(int) { return {l_, size_t(i_--)}; }
    iterator& operator+=(difference_type d) { return i_ += d, *this; }
    iterator& operator-=(difference_type d) { return i_ -= d, *this; }
    iterator operator+(difference_type d) const { return {l_, size_t(i_ + d)}; }
    friend iterator operator+(difference_type d, const iterator& it) { return it + d; }
    iterator operator-(difference_type d) const { return {l_, size_t(i_ - d)}; }
    difference_type operator-(const iterator& o) const { return i_ - o.i_; }
    auto operator<=>(const iterator& o) const { return i_ <=> o.i_; }
    bool operator==(const iterator& o) const { return i_ == o.i_; }

   private:
    const GidList* l_ = nullptr;
    difference_type i_ = 0;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size_}; }

 private:
  std::shared_ptr<const std::vector<uint32_t>> owned_;  // shared by copies of a request
  const uint32_t* data_ = nullptr;                      // null: the range from first_
  uint32_t first_ = 0;
  size_t size_ = 0;
};

}  // namespace ranvier
