// The STOP fence is written in one case of a switch over chip types: on A5 nothing fences STOP
// before the slots are cleared. Each case is its own path, up to its break.
#include <cstdint>
constexpr uint32_t AICORE_TASK_STOP = 0x7FFFFFF0u;
enum class Chip { A2, A3, A5 };
struct Hal {
  void SetReadyQueue(uint32_t a, uint32_t b, uint32_t t);
  void ResetParallelDevTask(uint32_t a, uint32_t b);
  void ResetShakeBuf(uint32_t a, uint32_t b);
  void CloseA5();
};
void Stop(Hal& h, Chip chip) {
  for (int g = 0; g < 2; ++g) {
    h.SetReadyQueue(0, 8, AICORE_TASK_STOP + 1);
    switch (chip) {
      case Chip::A5:
        h.CloseA5();
        break;
      case Chip::A2:
      case Chip::A3:
        __sync_synchronize();
        break;
    }
  }
  h.ResetParallelDevTask(0, 8);  // expect-error {{timing-stop-order}}
  __sync_synchronize();
  h.ResetShakeBuf(0, 8);
}
