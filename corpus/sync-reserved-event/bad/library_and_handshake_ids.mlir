// sync-reserved-event: ids the IR must leave to library code and to the barrier lowering.
module {
  // EVENT_ID7 on (V, MTE2) belongs to the template library; GSS allocates 0..6 on this pair.
  func.func @library_event(%x: memref<?xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c0_i64 = arith.constant 0 : i64
    %ub = hivm.hir.pointer_cast(%c0_i64) : memref<64xf32, #hivm.address_space<ub>>
    // expect-error@+1 {{sync-reserved-event}}
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID7>]
    // expect-error@+1 {{sync-reserved-event}}
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID7>]
    hivm.hir.load ins(%x : memref<?xf32, #hivm.address_space<gm>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
    return
  }

  // Flag 14 carries data sync [FIX -> V] although it belongs to the block-all handshake.
  func.func @handshake_flag_for_data(%ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    hivm.hir.set_ffts_base_addr %ffts
    // expect-error@+1 {{sync-reserved-event}}
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 14
    // expect-error@+1 {{sync-reserved-event}}
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 14
    return
  }

  // A sync_block ALL_CUBE barrier lowers onto flag 15; a data sync on 15 collides with it.
  func.func @barrier_flag_reused(%ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    hivm.hir.set_ffts_base_addr %ffts
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_FIX>
    // expect-error@+1 {{sync-reserved-event}}
    hivm.hir.sync_block_set[<CUBE>, <PIPE_S>, <PIPE_S>] flag = 15
    // expect-error@+1 {{sync-reserved-event}}
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_S>, <PIPE_S>] flag = 15
    return
  }
}
