// expect-no-findings
// sync-ffts-base: RegBase (Ascend950, a5) has no FFTS base to set.
module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">} {
  func.func @mix_on_regbase() attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    return
  }
}
