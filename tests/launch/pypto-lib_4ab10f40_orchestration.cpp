// Generated-orchestration shape (PTO2 runtime API, as in the fixture
// corpus-real/cpp/pypto-lib_90ff1556-orchestration-fixture) for the fused_pre_norm_cce kernel of
// pypto-lib 4ab10f40, written for ptoverify's tests: one synchronously started 48-lane wave (two hard
// AscendC::SyncAll barriers over every AIV core), 12 business tensors then the three scalars,
// no workspace; explicit dependencies on its two producers.
#include "pto_orchestration_api.h"

void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
  const Tensor& ext_x_mixed = orch_args.tensor(0).ref();
  const Tensor& ext_x_flat = orch_args.tensor(1).ref();
  const Tensor& ext_inv_rms = orch_args.tensor(2).ref();
  const Tensor& ext_mixes_raw = orch_args.tensor(3).ref();
  const Tensor& ext_hc_base = orch_args.tensor(4).ref();
  const Tensor& ext_norm_w = orch_args.tensor(5).ref();
  const Tensor& ext_pre_val_store = orch_args.tensor(6).ref();
  const Tensor& ext_post = orch_args.tensor(7).ref();
  const Tensor& ext_xg_buf = orch_args.tensor(8).ref();
  const Tensor& ext_ffn_inv_rms_buf = orch_args.tensor(9).ref();
  const Tensor& ext_xn_scale_buf = orch_args.tensor(10).ref();
  const Tensor& ext_x_norm_scale = orch_args.tensor(11).ref();
  uint64_t scale0 = orch_args.scalar(0);
  uint64_t scale1 = orch_args.scalar(1);
  uint64_t num_tokens = orch_args.scalar(2);

  // Spmd rms_group: hc_pre_rms
  L0TaskArgs rms_params;
  rms_params.add_input(ext_x_flat);
  rms_params.add_output(ext_inv_rms);
  rms_params.set_allow_early_resolve(true);
  TaskOutputTensors rms_output = rt_submit_aiv_task(73, rms_params);
  PTO2TaskId rms_id = rms_output.task_id();

  // Spmd linear_group: hc_pre_linear
  L0TaskArgs linear_params;
  linear_params.add_input(ext_x_flat);
  linear_params.add_output(ext_mixes_raw);
  linear_params.set_allow_early_resolve(true);
  TaskOutputTensors linear_output = rt_submit_aic_task(911, linear_params);
  PTO2TaskId linear_id = linear_output.task_id();

  // Task 4096: fused_pre_norm_cce
  L0TaskArgs fused_params;
  fused_params.add_output(ext_x_mixed);
  fused_params.add_input(ext_x_flat);
  fused_params.add_input(ext_inv_rms);
  fused_params.add_input(ext_mixes_raw);
  fused_params.add_input(ext_hc_base);
  fused_params.add_input(ext_norm_w);
  fused_params.add_output(ext_pre_val_store);
  fused_params.add_output(ext_post);
  fused_params.add_output(ext_xg_buf);
  fused_params.add_output(ext_ffn_inv_rms_buf);
  fused_params.add_output(ext_xn_scale_buf);
  fused_params.add_output(ext_x_norm_scale);
  fused_params.add_scalar(scale0);
  fused_params.add_scalar(scale1);
  fused_params.add_scalar(num_tokens);
  PTO2TaskId fused_deps[2];
  uint32_t fused_dep_count = 0;
  fused_deps[fused_dep_count++] = rms_id;
  fused_deps[fused_dep_count++] = linear_id;
  fused_params.set_dependencies(fused_deps, fused_dep_count);
  fused_params.launch_spec.set_block_num(48);
  fused_params.launch_spec.set_require_sync_start(true);
  fused_params.set_allow_early_resolve(true);
  TaskOutputTensors fused_output = rt_submit_aiv_task(8128, fused_params);
}
