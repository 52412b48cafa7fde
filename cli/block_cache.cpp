// Blocks for operator new / delete up to 1 MB: per-thread free lists by size class, carved
// from one address range this file reserves.
//
// Why: a model is thousands of small objects (tokens' strings, ops, expression nodes, map
// nodes) made per file and freed per file. glibc's own per-thread cache holds 7 blocks of a
// size; the rest went through its bins, and malloc + free were a quarter of a run's
// instructions over the .pto corpus (docs/performance.md). A first version kept freed malloc
// blocks per thread, but asking malloc_usable_size which class a freed block is (it may be
// anyone's malloc block) and going to malloc for every fresh block were still a tenth of a run.
// And on the VMs this runs on, a page's first touch costs about 10 us: 750 of them were a third
// of a run's CPU time. The range asks for huge pages, so a first touch there is one per 2 MB.
//
// So the blocks are this file's own: runs of 4-64 KB, each of one class, handed out from a reserved
// range. Whether a freed block is one of them is an address comparison, and its class is its
// run's (a table), never the size a delete passes nor a guess about another allocator's block:
// a block from anywhere else (plain malloc, a request over 1 MB) goes to free(). A freed block
// joins the freeing thread's list; a thread that ends hands its lists to the next thread that
// runs short. Memory given to a class stays with that class (the runs are never returned):
// `ptoverify` models one file at a time per thread, so what a class holds is about the largest
// file's. Without the range (mmap refused), every request goes to malloc.
//
// Linked into the shipped `ptoverify` only (not into `ptoverify-cpp`, nor into sanitizer or
// fuzz builds, whose allocators must see every new and delete).
#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>

namespace {

// Classes 1..128 hold blocks of 16*c bytes (up to 2 KB); classes 129..137 hold blocks of 4 KB
// to 1 MB, doubling (a growing vector's sizes double too). Larger requests go to malloc.
constexpr size_t kGranule = 16;
constexpr size_t kSmallClasses = 129;
constexpr size_t kSmallBytes = kGranule * (kSmallClasses - 1);
constexpr size_t kLargeShift = 12;  // the first large class holds 4 KB blocks
constexpr size_t kClasses = kSmallClasses + 9;
constexpr size_t kLargestBytes = size_t{1} << (kLargeShift + kClasses - kSmallClasses - 1);
// A run holds blocks of one class (a large block may span units). A class's first run is one
// 4 KB unit and each next one twice the last, up to 64 KB: a class that holds a few blocks
// takes a few KB, so a run's live blocks sit on few huge pages (each costs its whole 2 MB to
// zero at the first touch: 0.1-3.3 ms here).
constexpr size_t kUnitBytes = size_t{4} << 10;
constexpr size_t kMaxRunUnits = 16;
constexpr size_t kRangeBytes = size_t{16} << 30;  // reserved, not committed: runs are taken in order
constexpr size_t kCommitBytes = size_t{4} << 20;  // made accessible this much at a time
constexpr size_t kUnits = kRangeBytes / kUnitBytes;
constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

struct FreeBlock {
  FreeBlock* next;
};

// The range: set once (under rangeMutex), read without it. A block is ours when it is inside.
// Until then it names the top of the address space, where no user block lies: one value to
// load and one comparison tell ours from malloc's (or null), never half a range.
std::atomic<uintptr_t> rangeBegin{~uintptr_t{0} - kRangeBytes + 1};
std::atomic<bool> rangeGone{false};  // refused or used up: no new run to ask for
uint8_t classOfUnit[kUnits];  // the class of each handed-out unit's run
std::mutex rangeMutex;      // guards the fields below: the slow path only
bool rangeTried = false;
bool rangeReserved = false;
size_t unitsHandedOut = 0;
size_t committedBytes = 0;
FreeBlock* orphans[kClasses];  // lists of threads that ended, and blocks freed after that

enum class State : unsigned char {
  Unregistered,  // kept no block yet
  Registered,    // its lists are handed over when it ends
  Finished,      // it is ending: new blocks from malloc, freed ones to `orphans`
};

// Trivially destructible, so it is usable until the thread's very end; the key's destructor
// (after the C++ thread_local destructors) hands the lists over to `orphans`.
struct Cache {
  FreeBlock* head[kClasses];
  char* bump[kClasses];  // the rest of the class's current run
  char* bumpEnd[kClasses];
  uint8_t nextRunUnits[kClasses];  // 0: the class has had no run yet
  State state;
};
thread_local Cache cache;

pthread_key_t exitKey;
pthread_once_t exitKeyOnce = PTHREAD_ONCE_INIT;

void pushOrphans(size_t c, FreeBlock* first, FreeBlock* last) {
  std::lock_guard<std::mutex> lock(rangeMutex);
  last->next = orphans[c];
  orphans[c] = first;
}

void handOver(void*) {
  cache.state = State::Finished;
  for (size_t c = 1; c < kClasses; ++c) {
    FreeBlock* first = cache.head[c];
    if (!first) continue;
    FreeBlock* last = first;
    while (last->next) last = last->next;
    pushOrphans(c, first, last);
    cache.head[c] = nullptr;
  }
}

void makeExitKey() { pthread_key_create(&exitKey, handOver); }

// The first time a thread keeps a block: its lists are handed over when it ends.
void registerExit() {
  cache.state = State::Registered;
  pthread_once(&exitKeyOnce, makeExitKey);
  pthread_setspecific(exitKey, &cache);
}

// kClasses when no class holds `bytes` (more than 1 MB).
inline size_t classOf(size_t bytes) {
  if (bytes <= kSmallBytes) return (bytes + kGranule - 1) / kGranule;
  if (bytes > kLargestBytes) return kClasses;
  size_t log2Up = 64 - static_cast<size_t>(__builtin_clzl(bytes - 1));  // smallest power of two >= bytes
  return kSmallClasses + log2Up - kLargeShift;
}

size_t blockBytes(size_t c) {
  return c < kSmallClasses ? c * kGranule : size_t{1} << (kLargeShift + c - kSmallClasses);
}

// A new run of `units` units for class `c`, or null when the range is refused or used up.
// Caller holds rangeMutex.
char* takeRun(size_t c, size_t units) {
  if (!rangeTried) {
    rangeTried = true;
    void* p = mmap(nullptr, kRangeBytes + kHugePage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    rangeReserved = p != MAP_FAILED;
    if (rangeReserved) {
      // Huge pages where the kernel has them: a first touch costs one fault per 2 MB instead of
      // one per 4 KB, and on this project's VMs a fault was 10 us (docs/performance.md).
      uintptr_t aligned = (reinterpret_cast<uintptr_t>(p) + kHugePage - 1) & ~(kHugePage - 1);
      madvise(reinterpret_cast<void*>(aligned), kRangeBytes, MADV_HUGEPAGE);
      rangeBegin.store(aligned, std::memory_order_relaxed);
    }
  }
  char* begin = rangeReserved ? reinterpret_cast<char*>(rangeBegin.load(std::memory_order_relaxed)) : nullptr;
  size_t offset = unitsHandedOut * kUnitBytes;
  size_t end = offset + units * kUnitBytes;
  while (begin && unitsHandedOut + units <= kUnits && end > committedBytes &&
         mprotect(begin + committedBytes, kCommitBytes, PROT_READ | PROT_WRITE) == 0)
    committedBytes += kCommitBytes;
  if (!begin || unitsHandedOut + units > kUnits || end > committedBytes) {
    rangeGone.store(true, std::memory_order_relaxed);
    return nullptr;
  }
  for (size_t i = 0; i < units; ++i) classOfUnit[unitsHandedOut++] = static_cast<uint8_t>(c);
  return begin + offset;
}

// Class `c`'s list is empty: the orphans of that class, else a block from the current run,
// else a new run. Null when there is none: the caller goes to malloc.
void* refill(size_t c) {
  if (cache.bump[c] == cache.bumpEnd[c]) {
    // No range (or none left): malloc from now on, without the lock; ended threads' lists stay unused.
    if (rangeGone.load(std::memory_order_relaxed)) return nullptr;
    std::lock_guard<std::mutex> lock(rangeMutex);
    if (FreeBlock* list = orphans[c]) {
      orphans[c] = nullptr;
      cache.head[c] = list->next;
      return list;
    }
    size_t bytes = blockBytes(c);
    size_t units = std::max<size_t>((bytes + kUnitBytes - 1) / kUnitBytes, cache.nextRunUnits[c]);  // >= 1
    char* run = takeRun(c, units);
    if (!run) return nullptr;
    cache.nextRunUnits[c] = static_cast<uint8_t>(std::min(units * 2, kMaxRunUnits));
    cache.bump[c] = run;
    cache.bumpEnd[c] = run + units * kUnitBytes / bytes * bytes;
  }
  void* p = cache.bump[c];
  cache.bump[c] += blockBytes(c);
  return p;
}

// The slow paths are out of line, so the common case (a block on the list) saves no registers.
__attribute__((noinline)) void* allocateSlow(size_t bytes) {
  size_t c = classOf(bytes == 0 ? 1 : bytes);
  if (c < kClasses && cache.state != State::Finished) {
    if (cache.state == State::Unregistered) registerExit();
    if (void* p = refill(c)) return p;
  }
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (!p) throw std::bad_alloc();
  return p;
}

// (An ending thread's lists are empty: it takes nothing from them.)
inline void* allocate(size_t bytes) {
  size_t c = classOf(bytes);
  if (c < kClasses) {
    if (FreeBlock* b = cache.head[c]) {
      cache.head[c] = b->next;
      return b;
    }
  }
  return allocateSlow(bytes);
}

void* allocateOrNull(size_t bytes) noexcept {
  try {
    return allocate(bytes);
  } catch (...) {
    return nullptr;
  }
}

__attribute__((noinline)) void releaseSlow(FreeBlock* b, size_t c) {
  if (cache.state == State::Finished) return pushOrphans(c, b, b);
  registerExit();
  b->next = cache.head[c];
  cache.head[c] = b;
}

inline void release(void* p) {
  uintptr_t offset = reinterpret_cast<uintptr_t>(p) - rangeBegin.load(std::memory_order_relaxed);
  if (offset >= kRangeBytes) {  // not ours (or null)
    std::free(p);
    return;
  }
  size_t c = classOfUnit[offset / kUnitBytes];
  auto* b = static_cast<FreeBlock*>(p);
  if (cache.state != State::Registered) return releaseSlow(b, c);
  b->next = cache.head[c];
  cache.head[c] = b;
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
