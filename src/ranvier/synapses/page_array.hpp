// A fixed-size array that gives its memory back to the system when freed, so that staging
// consumed block by block really shrinks: a large one has pages of its own, mapped from the
// system (they cost memory only once written; malloc would keep them in its arenas when
// freed). A small one comes from malloc, as a mapping each would waste most of a page.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>

namespace ranvier {

template <class T>
class PageArray {
 public:
  PageArray() = default;
  static constexpr size_t mapped_bytes = size_t(1) << 16;  // and more: mapped

  explicit PageArray(size_t n) : bytes_(n * sizeof(T)) {
    void* p = bytes_ >= mapped_bytes ? mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                                     : std::malloc(bytes_);
    if (p == MAP_FAILED || p == nullptr) throw std::bad_alloc();
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
    if (!data_) return;
    if (bytes_ >= mapped_bytes)
      munmap(data_, bytes_);
    else
      std::free(data_);
  }

  explicit operator bool() const { return data_ != nullptr; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace ranvier
