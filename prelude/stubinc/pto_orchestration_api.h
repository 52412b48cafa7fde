#pragma once
// The PTO2 orchestration API is declared by ptoverify_prelude.h (always included).
