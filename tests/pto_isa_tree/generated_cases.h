// Stands in, for tests/pto_isa_tree.sh, for the generated_cases.h that pto-isa's flash-attention
// CMake files generate at build time (kernels/manual/common/flash_atten/scripts/generate_cases.py,
// which the corpus does not hold): TFA_FOR_EACH_CASE(MACRO) over the first of the script's
// default cases, MACRO(S0, HEAD, S1, CUBE_S0, CUBE_S1, TILE_S1, QK_PRELOAD, CAUSAL_MASK) with
// head 128, S0 128, S1 1024, cube tiles 128 x 128, TILE_S1 256, a preload depth of 4, no mask.
#pragma once
#include <cstddef>

#define TFA_FOR_EACH_CASE(MACRO) MACRO(128, 128, 1024, 128, 128, 256, 4, false)

struct GeneratedTfaCase {
    int s0;
    int head_size;
    int s1;
    int cube_s0;
    int cube_s1;
    int tile_s1;
    int qk_preload;
    bool causal_mask;
    const char* name;
};

static constexpr GeneratedTfaCase kGeneratedTfaCases[] = {
    {128, 128, 1024, 128, 128, 256, 4, false, "case_float_H_128_S0_128_S1_1024"},
};
static constexpr std::size_t kGeneratedTfaCasesCount = sizeof(kGeneratedTfaCases) / sizeof(kGeneratedTfaCases[0]);
