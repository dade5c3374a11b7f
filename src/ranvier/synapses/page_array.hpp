// A fixed-size array in pages of its own, mapped from the system: pages cost memory only
// once written, and freeing the array gives them back at once (malloc would keep them in
// its arenas), so staging that is consumed block by block really shrinks.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <utility>

namespace ranvier {

template <class T>
class PageArray {
 public:
  PageArray() = default;
  explicit PageArray(size_t n) : bytes_(n * sizeof(T)) {
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
  }
  PageArray(const PageArray&) = delete;
  PageArray& operator=(const PageArray&) = delete;
  PageArray(PageArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), bytes_(o.bytes_) {}
  PageArray& operator=(PageArray&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  ~PageArray() {
    if (data_) munmap(data_, bytes_);
  }

  explicit operator bool() const { return data_ != nullptr; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace ranvier
