// ptoverify stub for CANN's acl/acl.h: the host types that kernel files name in their launchers
// (host code is skipped; these only let the file parse).
#pragma once
#include <cstddef>
#include <cstdint>

using aclError = int;
using aclFloat16 = uint16_t;
using aclrtStream = void*;
using aclrtEvent = void*;
using aclrtContext = void*;
constexpr aclError ACL_SUCCESS = 0;
