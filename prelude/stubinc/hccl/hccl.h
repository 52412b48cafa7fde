// ptoverify stub: see hccl_types.h
#pragma once
#include "hccl/hccl_types.h"
