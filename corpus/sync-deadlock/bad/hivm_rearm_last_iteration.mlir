// sync-deadlock on HIVM: AscendNPU-IR c94452068 in the IR shape of its regression test
// (hivm-gss-mmadl1-reuse-set-on-last-iter.mlir): conflict-pair reuse kept a stale "set on
// last iteration only", so the re-arming set_flag [MTE1 -> MTE2] sits in scf.if %last while
// its wait runs every iteration, and MTE2 deadlocks on the second iteration.
module {
  func.func @mmad_loop(%a: memref<?xf16, #hivm.address_space<gm>>, %n: index) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i64 = arith.constant 0 : i64
    %last_i = arith.subi %n, %c1 : index
    %l1 = hivm.hir.pointer_cast(%c0_i64) : memref<16x16xf16, #hivm.address_space<cbuf>>
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    scf.for %i = %c0 to %n step %c1 {
      // expect-error@+1 {{sync-deadlock}} witness {{%n = 2, %i = 1}}
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.nd2nz ins(%a : memref<?xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x16xf16, #hivm.address_space<cbuf>>)
      %last = arith.cmpi eq, %i, %last_i : index
      scf.if %last {
        hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
      }
    }
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
