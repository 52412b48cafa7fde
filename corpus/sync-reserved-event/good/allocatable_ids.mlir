// expect-no-findings
// sync-reserved-event: ids the compiler may use.
module {
  // EVENT_ID7 on (MTE2, MTE3) is not a library pair; EVENT_ID6 on (V, MTE2) is allocatable.
  func.func @free_ids(%x: memref<?xf32, #hivm.address_space<gm>>, %y: memref<?xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c0_i64 = arith.constant 0 : i64
    %ub = hivm.hir.pointer_cast(%c0_i64) : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<?xf32, #hivm.address_space<gm>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID7>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID7>]
    hivm.hir.store ins(%ub : memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<?xf32, #hivm.address_space<gm>>)
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID6>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID6>]
    return
  }

  // The block-all handshake itself: flags 14 and 15 over [PIPE_S, PIPE_S].
  func.func @block_all_handshake(%ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    hivm.hir.set_ffts_base_addr %ffts
    hivm.hir.sync_block_set[<CUBE>, <PIPE_S>, <PIPE_S>] flag = 14
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_S>, <PIPE_S>] flag = 14
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_S>, <PIPE_S>] flag = 15
    hivm.hir.sync_block_wait[<CUBE>, <PIPE_S>, <PIPE_S>] flag = 15
    return
  }
}
