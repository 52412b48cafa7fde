#pragma once
// --shard splits the inputs by link group, not by file: the C++ inputs one run would link
// together (a header and the source that includes it, an orchestration file and the kernels its
// tasks name) go to one shard. A .pto or .mlir kernel links to the C++ of its name wherever it
// is; every shard loads all of those (they are cheap), so each shard links exactly what one run
// over all the inputs links and `merge` gives that run's bytes.
#include <string>
#include <vector>

namespace ptov {

// For each input, the first input (in `inputs` order) of its link group. Found from the text
// alone: includes are resolved below the includer's directories, so a header reached only
// through an -I outside its tree is not grouped (docs/ci.md).
std::vector<std::string> linkGroupLeaders(const std::vector<std::string>& inputs);

}  // namespace ptov
