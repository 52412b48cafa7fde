// barrier-sync-start: a 48-lane AIV kernel whose lanes meet at a hard all-core barrier, and the
// one launch of it asks for a synchronous start, so no lane spins while another waits for a core.
// Written for this corpus.
// expect-no-findings
#include <cstdint>
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t* args) {
  pipe_barrier(PIPE_ALL);
  AscendC::SyncAll<>();
  pipe_barrier(PIPE_ALL);
}

void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
  const Tensor& ext_out = orch_args.tensor(0).ref();

  // Task 7: kernel_entry
  L0TaskArgs step_params;
  step_params.add_output(ext_out);
  step_params.launch_spec.set_block_num(48);
  step_params.launch_spec.set_require_sync_start(true);
  step_params.set_allow_early_resolve(true);
  TaskOutputTensors step_output = rt_submit_aiv_task(7, step_params);
}
