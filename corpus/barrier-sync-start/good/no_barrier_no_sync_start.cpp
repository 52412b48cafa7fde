// barrier-sync-start: only a kernel with an all-core barrier needs a synchronous start. Of the two
// kernels this orchestration launches, the one whose lanes meet at a hard barrier asks for it;
// the one with no barrier does not, and a launch in waves is fine for it: its lanes never wait
// for each other. Written for this corpus.
// expect-no-findings
#include <cstdint>
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void step_entry(__gm__ int64_t* args) {
  pipe_barrier(PIPE_ALL);
  AscendC::SyncAll<>();
  pipe_barrier(PIPE_ALL);
}

extern "C" __global__ __aicore__ void copy_entry(__gm__ int64_t* args) {
  pipe_barrier(PIPE_ALL);
}

void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
  const Tensor& step_out = orch_args.tensor(0).ref();
  const Tensor& copy_out = orch_args.tensor(1).ref();

  // Task 2: step_entry
  L0TaskArgs step_params;
  step_params.add_output(step_out);
  step_params.launch_spec.set_block_num(48);
  step_params.launch_spec.set_require_sync_start(true);
  step_params.set_allow_early_resolve(true);
  TaskOutputTensors step_output = rt_submit_aiv_task(2, step_params);

  // Task 3: copy_entry
  L0TaskArgs copy_params;
  copy_params.add_output(copy_out);
  copy_params.launch_spec.set_block_num(48);
  TaskOutputTensors copy_output = rt_submit_aiv_task(3, copy_params);
}
