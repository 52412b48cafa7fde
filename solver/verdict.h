#pragma once
// The answers rules get from the solver layer, and the witnesses that back a Violated answer.
// Unknown is never a pass: reporters show it with its reason, and --strict turns it into exit 3.
#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/source_loc.h"

namespace ptov {

struct WitnessStep {
  SourceLoc loc;
  std::string what;  // "set_flag [PIPE_MTE2, PIPE_V, EVENT_ID0] in iteration %i = 1", ...
};

// One sync event of the witness drawn on its lane (a pipe, or a core for barriers).
struct LaneEvent {
  std::string lane;     // "PIPE_MTE2", "block_idx = 3"
  std::string label;    // "set_flag EVENT_ID0"
  SourceLoc loc;
  int matchedWith = -1;  // index of the set this wait consumes, -1 if none
  bool stuck = false;    // the op the lane is blocked at
  bool racing = false;   // one of the two unordered accesses of a race (label says what and where)
  int64_t rangeBegin = -1, rangeEnd = -1;  // racing: the bytes [begin, end) it touches, when known
};

// How a race witness names one of its two accesses.
struct RacingAccess {
  std::string text;                        // "TSTORE reads l0c acc [0, 4096)"
  int64_t rangeBegin = -1, rangeEnd = -1;  // the bytes, when the placement is known
};

struct Witness {
  std::vector<WitnessStep> path;  // ops on the violating path, in issue order
  std::vector<std::pair<std::string, int64_t>> values;  // the symbolic values Z3 chose
  std::vector<std::string> state;  // per-pipe / per-core state at the stuck point
  std::vector<LaneEvent> lanes;    // for --witness-dot and the HTML timeline
  size_t omittedSteps = 0;         // path steps left out (only the last ones are kept)
};

// "%n = 2, block_idx = 0" ("" when there are none).
inline std::string valuesText(const std::vector<std::pair<std::string, int64_t>>& values) {
  std::string out;
  for (const auto& [name, value] : values) out += (out.empty() ? "" : ", ") + name + " = " + std::to_string(value);
  return out;
}

struct Verdict {
  enum class Kind { Proved, Violated, Unknown };
  Kind kind = Kind::Unknown;
  Witness witness;     // Violated
  std::string reason;  // Unknown: timeout, unsupported construct, ...
  static Verdict proved() { return Verdict{Kind::Proved, {}, {}}; }
  static Verdict unknown(std::string why) { return Verdict{Kind::Unknown, {}, std::move(why)}; }
};

}  // namespace ptov
