// sync-block-pairing: cross-core flags are counters that one core sets and another waits on.
module {
  // The vector half waits on flag 2 from the cube, but the cube half sets flag 3.
  func.func @attn_mix_aic(%ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix} {
    hivm.hir.set_ffts_base_addr %ffts
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 3
    return
  }
  func.func @attn_mix_aiv(%ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
    hivm.hir.set_ffts_base_addr %ffts
    // expect-error@+1 {{sync-block-pairing}}
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 2
    return
  }

  // Flag ids are 0..15.
  func.func @flag_out_of_range(%ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    hivm.hir.set_ffts_base_addr %ffts
    // expect-error@+1 {{sync-block-pairing}}
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 16
    // expect-error@+1 {{sync-block-pairing}}
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 16
    return
  }

  // AscendNPU-IR MR !2814: the CV1:2 sub-block reduce's two ALL_SUB_VECTOR barriers both got
  // the default flag 14, and the halves collapsed into a deadlock.
  func.func @two_sub_block_barriers(%ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL_SUB_VECTOR>] ffts_base_addr = %ffts tvector_pipe = #hivm.pipe<PIPE_MTE3>
    // expect-error@+1 {{sync-block-pairing}}
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL_SUB_VECTOR>] ffts_base_addr = %ffts tvector_pipe = #hivm.pipe<PIPE_MTE3>
    return
  }

  // Eighteen sets of one flag with no wait between them: the counter takes 15.
  func.func @counter_overflow(%ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c18 = arith.constant 18 : index
    hivm.hir.set_ffts_base_addr %ffts
    scf.for %i = %c0 to %c18 step %c1 {
      // expect-error@+1 {{sync-block-pairing}}
      hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 4
    }
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 4
    return
  }
}
