#pragma once
// The upstream documents the rules come from, as RuleInfo::references name them: each rule cites
// the document by its title and lists its link beside it (docs/rules/*.md do the same).
namespace ptov::upstream {

// PyPTO's InsertCommFence pass: the data-before-signal contract (release fence, acquire invalidate).
inline constexpr const char* kInsertCommFence =
    "https://github.com/hw-native-sys/pypto/blob/main/docs/en/dev/passes/46-insert_comm_fence.md";
// PyPTO's GM cache access policy (CachePolicy.BYPASS and its codegen).
inline constexpr const char* kCachePolicy =
    "https://github.com/hw-native-sys/pypto/blob/main/docs/en/dev/language/05-cache-policy.md";
// AscendNPU IR's Auto-Sync design (HIVM set_flag / wait_flag, block sync).
inline constexpr const char* kAutoSync =
    "https://gitcode.com/Ascend/AscendNPU-IR/blob/master/docs/source/zh_cn/developer_guide/features/auto_sync.md";
// The timing rules of cann/pypto's pypto-machine-code-review skill.
inline constexpr const char* kMachineCodeReview = "https://gitcode.com/cann/pypto";
// pypto-lib's DeepSeek-V4 MoE fusion write-up (the fused pre-norm kernel, soft barriers).
inline constexpr const char* kMoeFusion = "https://github.com/hw-native-sys/pypto-lib/pull/825";

}  // namespace ptov::upstream
