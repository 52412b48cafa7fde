// ptoverify stub for AscendC's kernel_operator.h: its declarations are ptoverify_ascendc.h's
// (already included with the prelude; read here when a kernel is read against pto-isa's real
// headers, where the prelude's pto-isa part is not used).
#pragma once
#include "../ptoverify_ascendc.h"
