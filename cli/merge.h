#pragma once
// `ptoverify merge a.sarif b.sarif ... -o all.sarif`: joins the SARIF of CI shards (--shard K/N)
// into one run: the first file's tool and rules, every file's results and notifications.
#include <string>
#include <vector>

namespace ptov {

// Returns 0, or 2 with a message on stderr when an input is not ptoverify SARIF.
int mergeSarif(const std::vector<std::string>& inputs, const std::string& output);

}  // namespace ptov
