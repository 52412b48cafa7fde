#pragma once
// Rule options: what `.ptoverify.yaml` sets for one rule (`options: RULE: {NAME: VALUE}`). A
// value is YAML (a number, a list of name globs, a table); the option's reader checks it and
// turns it into what the rule reads (RuleContext::option<T>). Each rule declares its options in
// its own file (Rule::options); cli/config.cpp parses and prints them from those declarations.
#include <yaml-cpp/yaml.h>

#include <any>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ptov {

// A bad value: what is wrong and where (cli/config.cpp puts the file, line and column before it).
struct OptionError {
  std::string message;
  YAML::Mark mark;
};
[[noreturn]] void failAt(const YAML::Node& n, const std::string& message);

// Readers of one YAML value; `what` names it in the error ("ub-range.ub-bytes").
std::string readScalar(const YAML::Node& n, const std::string& what);
int64_t readInteger(const YAML::Node& n, const std::string& what);
bool readBoolean(const YAML::Node& n, const std::string& what);
std::vector<std::string> readNames(const YAML::Node& n, const std::string& what);
// A list of names, each one of `allowed` ("a reader is ctrl, sche or aicore, not 'gpu'").
std::vector<std::string> readNamesOf(const YAML::Node& n, const std::string& what, const std::string& itemWord,
                                     const std::vector<std::string>& allowed);
// The items with `separator` between them.
std::string joinWith(const std::vector<std::string>& items, const std::string& separator);
// "a, b or c" / "a, b and c".
std::string joinWithOr(const std::vector<std::string>& words);
std::string joinWithAnd(const std::vector<std::string>& words);

struct RuleOption {
  std::string name;
  std::string help;
  std::map<std::string, YAML::Node> defaults;  // per target arch, "" for every other one
  // Checks a value and turns it into what the rule reads (throws OptionError on a bad one).
  std::function<std::any(const YAML::Node& value, const std::string& what)> read;
  // How a configured value combines with the one it overrides (unset: it replaces it).
  std::function<YAML::Node(const YAML::Node& configured, const YAML::Node& current, const std::string& what)> merge;
  // A second place the value may be written: a path of keys (`timing: stop-order: fences:`, the
  // section the timing rules' tables had before they were options); empty when none.
  std::vector<std::string> alias;

  const YAML::Node& defaultFor(const std::string& arch) const;
};

// The common kinds: an integer (per-arch defaults, at least `minimum`), a list of name globs, one
// text, a map from fixed keys to a text.
RuleOption integerOption(const std::string& name, const std::map<std::string, int64_t>& defaults,
                         const std::string& help, int64_t minimum = INT64_MIN);
RuleOption namesOption(const std::string& name, const std::vector<std::string>& defaults, const std::string& help);
RuleOption textOption(const std::string& name, const std::string& defaultValue, const std::string& help);
// `keyWord` and `valueWord` say what a key and a value are in an error ("arch must be a2a3 or a5").
RuleOption textMapOption(const std::string& name, const std::map<std::string, std::string>& defaults,
                         const std::vector<std::string>& keys, const std::string& keyWord, const std::string& valueWord,
                         const std::string& help);
// A YAML list in flow style (`[a, b]`), as `config --dump` prints lists.
YAML::Node flowList(const std::vector<std::string>& items);

// A configured option: its YAML as merged (for `config --dump`) and what its reader made of it.
struct OptionValue {
  YAML::Node yaml;
  std::any value;
};
// rule id -> option -> configured value.
using RuleOptions = std::map<std::string, std::map<std::string, OptionValue>>;

// Sets option `o` of rule `ruleId` to `value`, merged onto the value it overrides (the one
// configured before, else the default) and checked by the option's reader.
void configureOption(RuleOptions& options, const std::string& ruleId, const RuleOption& o, const YAML::Node& value,
                     const std::string& what);

}  // namespace ptov
