// Generated-orchestration shape (PTO2 runtime API), written for this corpus: inv_rms is created
// with manual_dep, so the runtime adds no edge for it; its reader comb depends on its writer rms
// through dispatch (a transitive explicit order, as the DeepSeek-V4 MoE fusion write-up §2.3-2.4 argues for comb_sinkhorn).
// expect-no-findings
#include "pto_orchestration_api.h"

void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
  const Tensor& ext_x = orch_args.tensor(0).ref();
  const Tensor& ext_out = orch_args.tensor(1).ref();
  uint32_t inv_rms_ci_shapes[2] = {16, 1};
  TensorCreateInfo inv_rms_ci(inv_rms_ci_shapes, 2, DataType::FLOAT32, /*manual_dep=*/true);
  TaskOutputTensors allocation = alloc_tensors(inv_rms_ci);
  const Tensor& inv_rms = allocation.get_ref(0);

  // Spmd rms_group: hc_pre_rms
  L0TaskArgs rms_params;
  rms_params.add_input(ext_x);
  rms_params.add_output(inv_rms);
  TaskOutputTensors rms_output = rt_submit_aiv_task(1, rms_params);
  PTO2TaskId rms_id = rms_output.task_id();

  // Spmd dispatch_group: dispatch_gather
  L0TaskArgs dispatch_params;
  dispatch_params.add_input(ext_x);
  PTO2TaskId dispatch_deps[1];
  dispatch_deps[0] = rms_id;
  dispatch_params.set_dependencies(dispatch_deps, 1);
  TaskOutputTensors dispatch_output = rt_submit_aiv_task(2, dispatch_params);
  PTO2TaskId dispatch_id = dispatch_output.task_id();

  // Spmd comb_group: comb_sinkhorn
  L0TaskArgs comb_params;
  comb_params.add_input(inv_rms);
  comb_params.add_output(ext_out);
  PTO2TaskId comb_deps[1];
  comb_deps[0] = dispatch_id;
  comb_params.set_dependencies(comb_deps, 1);
  TaskOutputTensors comb_output = rt_submit_aiv_task(3, comb_params);
}
