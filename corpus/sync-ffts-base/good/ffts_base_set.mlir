// expect-no-findings
// sync-ffts-base: the base is set, carried by every set, or not needed.
module {
  func.func @sets_base(%ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    hivm.hir.set_ffts_base_addr %ffts
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    return
  }
  // The pipeline fills ffts_base_addr from the hacc.arg_type<ffts_base_address> argument.
  func.func @base_argument(%arg0: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 1
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 1
    return
  }
}
