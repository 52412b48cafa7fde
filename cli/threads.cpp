#include "cli/threads.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <vector>

namespace ptov {

namespace {
struct Shared {
  Shared(const std::function<void(size_t)>& t, size_t n) : task(t), count(n) {}
  const std::function<void(size_t)>& task;
  const size_t count;
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::exception_ptr error;  // the first one thrown
};

void* work(void* arg) {
  auto& s = *static_cast<Shared*>(arg);
  for (size_t i = s.next++; i < s.count; i = s.next++) {
    try {
      s.task(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(s.mutex);
      if (!s.error) s.error = std::current_exception();
    }
  }
  return nullptr;
}
}  // namespace

void runOnThreads(size_t count, unsigned threads, const std::function<void(size_t)>& task) {
  if (count == 0) return;
  Shared shared(task, count);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kThreadStackBytes);
  std::vector<pthread_t> started;
  const size_t wanted = std::clamp<size_t>(threads, 1, count);
  for (size_t t = 0; t < wanted; ++t) {
    pthread_t thread;
    if (pthread_create(&thread, &attr, &work, &shared) != 0) break;
    started.push_back(thread);
  }
  pthread_attr_destroy(&attr);
  if (started.empty()) work(&shared);  // no thread to be had: the caller's own stack
  for (pthread_t thread : started) pthread_join(thread, nullptr);
  if (shared.error) std::rethrow_exception(shared.error);
}

}  // namespace ptov
