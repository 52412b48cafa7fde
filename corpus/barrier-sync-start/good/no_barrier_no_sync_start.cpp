// barrier-sync-start: a kernel with no all-core barrier needs no synchronous start; its lanes
// never wait for each other, so a launch in waves is fine. Written for this corpus.
// expect-no-findings
#include <cstdint>
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t* args) {
  pipe_barrier(PIPE_ALL);
}

void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
  const Tensor& ext_out = orch_args.tensor(0).ref();

  // Task 3: kernel_entry
  L0TaskArgs copy_params;
  copy_params.add_output(ext_out);
  copy_params.launch_spec.set_block_num(48);
  TaskOutputTensors copy_output = rt_submit_aiv_task(3, copy_params);
}
