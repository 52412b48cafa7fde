// Small blocks for operator new / delete, kept per thread by size class in front of malloc.
//
// Why: a model is thousands of small objects (tokens' strings, ops, expression nodes, map
// nodes) made per file and freed per file. glibc's own per-thread cache holds 7 blocks of a
// size; the rest went through its bins, and malloc + free were a quarter of a run's
// instructions over the .pto corpus. GLIBC_TUNABLES=glibc.malloc.tcache_count=2000 took a fifth
// off the run, but tunables are read from the environment at start-up only; this is the same
// idea, in the program (docs/performance.md).
//
// Every block is a malloc block: one freed here may have come from malloc anywhere (another
// thread, a shared library's operator new), and one handed out here may be freed by plain
// free(). A class is reused only for requests its blocks' usable size covers.
//
// Linked into the shipped `ptoverify` only (not into sanitizer or fuzz builds, whose allocators
// must see every new and delete).
#include <malloc.h>
#include <pthread.h>

#include <cstdlib>
#include <new>

namespace {

constexpr size_t kGranule = 16;
constexpr size_t kClasses = 129;                   // class c holds blocks of at least 16*c bytes, c in 1..128
constexpr size_t kBytesKept = size_t{64} << 20;    // a thread keeps at most this much in all

struct FreeBlock {
  FreeBlock* next;
};

// Trivially destructible, so it is usable until the thread's very end; the key's destructor
// (after the C++ thread_local destructors) hands the blocks back to malloc.
struct Cache {
  FreeBlock* head[kClasses];
  size_t bytes;  // kept, in all classes
  bool registered;
  bool finished;  // the thread is exiting: straight to malloc / free
};
thread_local Cache cache;

pthread_key_t exitKey;
pthread_once_t exitKeyOnce = PTHREAD_ONCE_INIT;

void releaseAll(void*) {
  cache.finished = true;
  for (size_t c = 0; c < kClasses; ++c)
    while (FreeBlock* b = cache.head[c]) {
      cache.head[c] = b->next;
      std::free(b);
    }
}

void makeExitKey() { pthread_key_create(&exitKey, releaseAll); }

size_t classOf(size_t bytes) { return (bytes + kGranule - 1) / kGranule; }

void* allocate(size_t bytes) {
  size_t c = classOf(bytes == 0 ? 1 : bytes);
  if (c < kClasses && !cache.finished) {
    if (FreeBlock* b = cache.head[c]) {
      cache.head[c] = b->next;
      cache.bytes -= c * kGranule;
      return b;
    }
    if (!cache.registered) {  // the first block this thread asks for: free its cache at exit
      cache.registered = true;
      pthread_once(&exitKeyOnce, makeExitKey);
      pthread_setspecific(exitKey, &cache);
    }
    bytes = c * kGranule;
  }
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (!p) throw std::bad_alloc();
  return p;
}

void* allocateOrNull(size_t bytes) noexcept {
  try {
    return allocate(bytes);
  } catch (...) {
    return nullptr;
  }
}

// The class whose every request the block's usable size covers. Not from the size a sized
// delete passes: a block another library's operator new took from malloc is not rounded up
// to its class.
void release(void* p) {
  if (!p) return;
  size_t c = malloc_usable_size(p) / kGranule;
  if (c == 0 || c >= kClasses || cache.finished || !cache.registered || cache.bytes + c * kGranule > kBytesKept) {
    std::free(p);
    return;
  }
  auto* b = static_cast<FreeBlock*>(p);
  b->next = cache.head[c];
  cache.head[c] = b;
  cache.bytes += c * kGranule;
}

}  // namespace

void* operator new(size_t bytes) { return allocate(bytes); }
void* operator new[](size_t bytes) { return allocate(bytes); }
void* operator new(size_t bytes, const std::nothrow_t&) noexcept { return allocateOrNull(bytes); }
void* operator new[](size_t bytes, const std::nothrow_t&) noexcept { return allocateOrNull(bytes); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, size_t) noexcept { release(p); }
void operator delete[](void* p, size_t) noexcept { release(p); }
