// sync-pipe-race on HIVM: one UB placement reused every iteration with forward syncs only.
// Nothing orders the previous iteration's vadd and store before the next load, nor that store
// before the next vadd: the backward syncs (V -> MTE2, MTE3 -> MTE2/V) are missing.
module {
  func.func @add_loop(%x: memref<?xf32, #hivm.address_space<gm>>, %y: memref<?xf32, #hivm.address_space<gm>>, %n: index) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i64 = arith.constant 0 : i64
    %ub = hivm.hir.pointer_cast(%c0_i64) : memref<64xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %n step %c1 {
      // expect-error@+2 {{sync-pipe-race}} witness {{%n = 2, %i = 1}}
      // expect-error@+1 {{sync-pipe-race}}
      hivm.hir.load ins(%x : memref<?xf32, #hivm.address_space<gm>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      // expect-error@+1 {{sync-pipe-race}}
      hivm.hir.vadd ins(%ub, %ub : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.store ins(%ub : memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<?xf32, #hivm.address_space<gm>>)
    }
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
