// sync-ffts-base: on 910B (no hacc.target, memory-based) cross-core flags go through FFTS,
// whose base address the kernel must set first.
module {
  func.func @mix_without_base() attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    // expect-error@+1 {{sync-ffts-base}}
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    return
  }

  // A barrier macro without its ffts_base_addr operand and no set_ffts_base_addr.
  func.func @barrier_without_base() attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    // expect-error@+1 {{sync-ffts-base}}
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>] tcube_pipe = #hivm.pipe<PIPE_FIX>
    return
  }
}
