#include "rules/rule_option.h"

#include <algorithm>
#include <stdexcept>

namespace ptov {

void failAt(const YAML::Node& n, const std::string& message) { throw OptionError{message, n.Mark()}; }

std::string readScalar(const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) failAt(n, what + " must be a single value");
  return n.Scalar();
}

int64_t readInteger(const YAML::Node& n, const std::string& what) {
  std::string s = readScalar(n, what);
  try {
    size_t used = 0;
    int64_t v = std::stoll(s, &used);
    if (used == s.size()) return v;
  } catch (const std::logic_error&) {
  }
  failAt(n, what + " must be an integer, not '" + s + "'");
}

bool readBoolean(const YAML::Node& n, const std::string& what) {
  std::string s = readScalar(n, what);
  if (s == "true") return true;
  if (s == "false") return false;
  failAt(n, what + " must be true or false, not '" + s + "'");
}

std::vector<std::string> readNames(const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence()) failAt(n, what + " must be a list of names");
  std::vector<std::string> out;
  for (const auto& x : n) out.push_back(readScalar(x, "an entry of " + what));
  return out;
}

std::string joinWith(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : separator) + i;
  return out;
}

namespace {
std::string joinSeries(const std::vector<std::string>& words, const char* last) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) out += (i == 0 ? "" : i + 1 == words.size() ? last : ", ") + words[i];
  return out;
}
}  // namespace

std::string joinWithOr(const std::vector<std::string>& words) { return joinSeries(words, " or "); }
std::string joinWithAnd(const std::vector<std::string>& words) { return joinSeries(words, " and "); }

std::vector<std::string> readNamesOf(const YAML::Node& n, const std::string& what, const std::string& itemWord,
                                     const std::vector<std::string>& allowed) {
  std::vector<std::string> out = readNames(n, what);
  for (size_t i = 0; i < out.size(); ++i)
    if (std::find(allowed.begin(), allowed.end(), out[i]) == allowed.end())
      failAt(n[i], itemWord + " is " + joinWithOr(allowed) + ", not '" + out[i] + "'");
  return out;
}

const YAML::Node& RuleOption::defaultFor(const std::string& arch) const {
  auto it = defaults.find(arch);
  if (it == defaults.end()) it = defaults.find("");
  if (it == defaults.end()) throw std::logic_error("option '" + name + "' has no default");
  return it->second;
}

YAML::Node flowList(const std::vector<std::string>& items) {
  YAML::Node n(YAML::NodeType::Sequence);
  for (const auto& i : items) n.push_back(i);
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

RuleOption integerOption(const std::string& name, const std::map<std::string, int64_t>& defaults,
                         const std::string& help, int64_t minimum) {
  RuleOption o{name, help, {}, nullptr, nullptr, {}};
  for (const auto& [arch, v] : defaults) o.defaults[arch] = YAML::Node(v);
  o.read = [minimum](const YAML::Node& n, const std::string& what) -> std::any {
    int64_t v = readInteger(n, what);
    if (v < minimum)
      failAt(n, what + (minimum == 1 ? " must be positive" : " must be at least " + std::to_string(minimum)));
    return v;
  };
  return o;
}

RuleOption namesOption(const std::string& name, const std::vector<std::string>& defaults, const std::string& help) {
  return {name, help, {{"", flowList(defaults)}},
          [](const YAML::Node& n, const std::string& what) -> std::any { return readNames(n, what); }, nullptr, {}};
}

RuleOption textOption(const std::string& name, const std::string& defaultValue, const std::string& help) {
  return {name, help, {{"", YAML::Node(defaultValue)}},
          [](const YAML::Node& n, const std::string& what) -> std::any { return readScalar(n, what); }, nullptr, {}};
}

RuleOption textMapOption(const std::string& name, const std::map<std::string, std::string>& defaults,
                         const std::vector<std::string>& keys, const std::string& keyWord, const std::string& valueWord,
                         const std::string& help) {
  YAML::Node d(YAML::NodeType::Map);
  for (const auto& [k, v] : defaults) d[k] = v;
  d.SetStyle(YAML::EmitterStyle::Flow);
  auto read = [keys, keyWord, valueWord](const YAML::Node& n, const std::string& what) -> std::any {
    if (!n.IsMap()) failAt(n, what + " must map " + keyWord + " (" + joinWith(keys, ", ") + ") to " + valueWord);
    std::map<std::string, std::string> out;
    for (const auto& kv : n) {
      std::string key = kv.first.Scalar();
      if (std::find(keys.begin(), keys.end(), key) == keys.end())
        failAt(kv.first, keyWord + " must be " + joinWithOr(keys) + ", not '" + key + "'");
      out[key] = readScalar(kv.second, what + "." + key);
    }
    return out;
  };
  return {name, help, {{"", d}}, read, nullptr, {}};
}

void configureOption(RuleOptions& options, const std::string& ruleId, const RuleOption& o, const YAML::Node& value,
                     const std::string& what) {
  auto& slot = options[ruleId];
  auto before = slot.find(o.name);
  YAML::Node merged = o.merge ? o.merge(value, before != slot.end() ? before->second.yaml : o.defaultFor(""), what)
                              : value;
  std::any read = o.read(merged, what);
  // Replaced, not assigned: assigning a YAML::Node rewrites the node it referred to.
  slot.erase(o.name);
  slot.emplace(o.name, OptionValue{merged, std::move(read)});
}

}  // namespace ptov
