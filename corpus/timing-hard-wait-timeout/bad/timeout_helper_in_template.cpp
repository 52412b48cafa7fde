// The pypto-machine-code-review timing rules §4.2 in two other shapes: the timeout check is a helper (`IsTimeout(start, t)`), once
// in a function template's loop body and once in the loop condition with the failure after the
// loop. Both fail hard after 1 ms while the peer AICPU may be parked by the device OS.
#include <cstdint>

constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;
constexpr uint64_t TIMEOUT_A2A3_1MS = 50000;

uint64_t GetCycles();
void DevLogError(const char* what);
inline bool IsTimeout(uint64_t start, uint64_t timeout) { return GetCycles() - start > timeout; }

struct PeerFlag {
  volatile int ready;
};

template <class Flag>
int WaitPeer(const Flag* flag) {
  const uint64_t start = GetCycles();
  while (!flag->ready) {
    if (IsTimeout(start, TIMEOUT_A2A3_1MS)) {  // expect-error {{timing-hard-wait-timeout}}
      DevLogError("peer AICPU did not come up");
      return -1;
    }
  }
  return 0;
}

int WaitPeerThenRun(const PeerFlag* flag) {
  const uint64_t start = GetCycles();
  while (!flag->ready && !IsTimeout(start, TIMEOUT_A2A3_1MS)) {  // expect-error {{timing-hard-wait-timeout}}
  }
  if (!flag->ready) {
    DevLogError("peer AICPU did not come up");
    return -1;
  }
  return WaitPeer(flag);
}
