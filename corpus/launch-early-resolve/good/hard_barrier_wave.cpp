// A 48-lane AIV kernel with a hard all-core barrier, launched as one synchronously started wave
// after its producer; both the kernel's task and its producer allow early resolve (the DeepSeek-V4 MoE fusion write-up
// §2.5), written for this corpus.
// expect-no-findings
#include <cstdint>
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t* args) {
  pipe_barrier(PIPE_ALL);
  AscendC::SyncAll<>();
  pipe_barrier(PIPE_ALL);
}

void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
  const Tensor& ext_x = orch_args.tensor(0).ref();

  // Spmd producer_group: producer
  L0TaskArgs producer_params;
  producer_params.add_output(ext_x);
  producer_params.set_allow_early_resolve(true);
  TaskOutputTensors producer_output = rt_submit_aiv_task(1, producer_params);
  PTO2TaskId producer_id = producer_output.task_id();

  // Task 2: kernel_entry
  L0TaskArgs wave_params;
  wave_params.add_input(ext_x);
  PTO2TaskId wave_deps[1];
  wave_deps[0] = producer_id;
  wave_params.set_dependencies(wave_deps, 1);
  wave_params.launch_spec.set_block_num(48);
  wave_params.launch_spec.set_require_sync_start(true);
  wave_params.set_allow_early_resolve(true);
  TaskOutputTensors wave_output = rt_submit_aiv_task(2, wave_params);
}
