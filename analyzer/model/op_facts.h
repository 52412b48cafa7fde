#pragma once
// What a dialect's op table says of one op: its model kind and the pipes it runs on. The .pto
// and HIVM tables (analyzer/pto, analyzer/hivm) both give it; rules never switch on op names,
// they read these facts from the model.
#include <vector>

#include "analyzer/model/model.h"

namespace ptov {

struct OpFacts {
  OpKind kind = OpKind::Other;
  std::vector<Pipe> pipes;
  bool known = false;  // listed in the table (as opposed to a default guess)
};

}  // namespace ptov
