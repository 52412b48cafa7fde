// expect-no-findings
// sync-block-pairing: handshakes whose every wait has its set.
module {
  // The split halves of one MIX kernel: the cube sets flag 0 after its fixpipe, the vector
  // waits on it before its load; the vector answers on flag 1.
  func.func @attn_mix_aic(%ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix} {
    hivm.hir.set_ffts_base_addr %ffts
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 0
    hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_FIX>] flag = 1
    return
  }
  func.func @attn_mix_aiv(%ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
    hivm.hir.set_ffts_base_addr %ffts
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_S>] flag = 0
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_FIX>] flag = 1
    return
  }

  // Inter-block sync (an all-cube barrier): set and wait run on the same core type; two
  // barriers on different flags.
  func.func @all_cube_barrier(%ffts: i64, %n: index) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    hivm.hir.set_ffts_base_addr %ffts
    scf.for %i = %c0 to %n step %c1 {
      hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_FIX>] flag = 5 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
      hivm.hir.sync_block_wait[<CUBE>, <PIPE_FIX>, <PIPE_FIX>] flag = 5 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
    }
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>, 6 : i16] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_FIX>
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>, 7 : i16] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_FIX>
    return
  }
}
