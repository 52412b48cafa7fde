// the DeepSeek-V4 MoE fusion write-up §2.4: inv_rms is created with manual_dep, so the runtime adds no edge for it, and comb
// reads it while depending on dispatch only, which does not depend on rms: comb can run first.
// Variant of corpus/launch-dependencies/good/manual_dep_ordered.cpp (written for this corpus).
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
  TaskOutputTensors dispatch_output = rt_submit_aiv_task(2, dispatch_params);
  PTO2TaskId dispatch_id = dispatch_output.task_id();

  // Spmd comb_group: comb_sinkhorn
  L0TaskArgs comb_params;
  // expect-error@+1 {{launch-dependencies}}
  comb_params.add_input(inv_rms);
  comb_params.add_output(ext_out);
  PTO2TaskId comb_deps[1];
  comb_deps[0] = dispatch_id;
  comb_params.set_dependencies(comb_deps, 1);
  TaskOutputTensors comb_output = rt_submit_aiv_task(3, comb_params);
}
