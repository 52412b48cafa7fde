// sync-event-pairing: intra-core set_flag / wait_flag on the same (src pipe, dst pipe, id)
// balance on every path and across loop back edges.
#include <tuple>

#include "rules/model_queries.h"
#include "rules/rule.h"

namespace ptov {
namespace {

using EventKey = std::tuple<int, int, int64_t>;  // src, dst, id
// An event flag is binary: a set on a set flag leaves it set, a wait clears it. The abstract
// state is which of the two values are possible on some path.
constexpr unsigned kZero = 1, kOne = 2;
constexpr int64_t kMaxEventId = 7;

std::string eventText(const EventKey& k) {
  return std::string("[") + pipeName(static_cast<Pipe>(std::get<0>(k))) + ", " +
         pipeName(static_cast<Pipe>(std::get<1>(k))) + ", EVENT_ID" + std::to_string(std::get<2>(k)) + "]";
}

struct EventState {
  BitsState<EventKey> counts;          // missing key = {kZero}
  std::map<EventKey, std::set<int>> lastSets;  // set nodes that may be outstanding
  bool join(const EventState& o) {
    // A key missing on one side means count zero there.
    bool changed = false;
    for (const auto& [k, b] : o.counts.bits)
      if (!counts.bits.count(k)) {
        counts.bits[k] = kZero;
        changed = true;
      }
    for (auto& [k, b] : counts.bits)
      if (!o.counts.bits.count(k) && !(b & kZero)) {
        b |= kZero;
        changed = true;
      }
    changed |= counts.join(o.counts);
    for (const auto& [k, sets] : o.lastSets)
      for (int s : sets) changed |= lastSets[k].insert(s).second;
    return changed;
  }
  unsigned get(const EventKey& k) const {
    auto it = counts.bits.find(k);
    return it == counts.bits.end() ? kZero : it->second;
  }
};

class SyncEventPairing : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"sync-event-pairing", "sync", Severity::Error,
                            "set_flag/wait_flag pairs unbalanced, unmatched, out of range or colliding with library events",
                            {"PTOAS #428", "PTOAS #533", "PTOAS #823", "PTOAS #1149", "PTOAS SyncMacroModel (TPUT/TGET EVENT_ID0/1)"}};
    return i;
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    checkIds(*k.body, ctx);
    Flow flow = Flow::build(*k.body);
    auto transfer = [&](const FlowNode& n, EventState& s, bool report) {
      if (n.kind == FlowNode::Kind::Exit) {
        if (report) reportAtExit(k, flow, s, ctx);
        return;
      }
      if (!n.op) return;
      const Op& op = *n.op;
      int self = static_cast<int>(&n - flow.nodes.data());
      if (op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag) {
        if (!op.event.id || op.event.src == Pipe::Unknown || op.event.dst == Pipe::Unknown) return;
        EventKey key{static_cast<int>(op.event.src), static_cast<int>(op.event.dst), *op.event.id};
        unsigned c = s.get(key);
        if (op.kind == OpKind::SetFlag) {
          if (report && (c & kOne)) {
            Severity sev = (c & kZero) ? Severity::Warning : Severity::Error;
            Finding& f = ctx.report(sev, op.loc, "set_flag " + eventText(key) + " while the same event is already set" +
                                                     ((c & kZero) ? " on some path" : "") +
                                                     " (no wait in between): the flag is binary, so one of the two "
                                                     "waits has nothing to consume");
            for (int prev : s.lastSets[key]) f.notes.push_back({flow.nodes[prev].op->loc, "the earlier set"});
          }
          s.counts.bits[key] = kOne;
          s.lastSets[key] = {self};
        } else {
          if (report && (c & kZero)) {
            bool never = c == kZero;
            Severity sev = never ? Severity::Error : Severity::Warning;
            ctx.report(sev, op.loc, "wait_flag " + eventText(key) +
                                        (never ? " has no matching set_flag on any path reaching it: it waits forever"
                                               : " can be reached on some path with no matching set_flag before it"));
          }
          s.counts.bits[key] = kZero;
          s.lastSets.erase(key);
        }
        return;
      }
      if (report && (op.kind == OpKind::Put || op.kind == OpKind::Get || op.kind == OpKind::Collective))
        reportLibraryCollision(op, s, ctx);
    };
    solveThenReport(flow, EventState{}, transfer);
  }

 private:
  static void checkIds(const Stmt& body, RuleContext& ctx) {
    forEachOp(body, [&](const Op& op) {
      if ((op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag) && op.event.id &&
          (*op.event.id < 0 || *op.event.id > kMaxEventId))
        ctx.report(op.loc, "event id " + std::to_string(*op.event.id) + " of '" + op.name +
                               "' is outside EVENT_ID0..EVENT_ID7");
    });
  }

  static void reportLibraryCollision(const Op& op, const EventState& s, RuleContext& ctx) {
    for (const auto& [key, bits] : s.counts.bits) {
      auto src = static_cast<Pipe>(std::get<0>(key)), dst = static_cast<Pipe>(std::get<1>(key));
      bool mtePair = (src == Pipe::MTE2 && dst == Pipe::MTE3) || (src == Pipe::MTE3 && dst == Pipe::MTE2);
      if (!mtePair || std::get<2>(key) > 1 || !(bits & kOne)) continue;
      Finding& f = ctx.report(op.loc, "user event " + eventText(key) + " is outstanding across '" + op.name +
                                          "', which uses the same MTE2/MTE3 EVENT_ID0/1 internally");
      f.notes.push_back({op.loc, "library events of TPUT/TGET/collectives: MTE2<->MTE3 on EVENT_ID0 and EVENT_ID1"});
    }
  }

  static void reportAtExit(const Kernel& k, const Flow& flow, const EventState& s, RuleContext& ctx) {
    for (const auto& [key, bits] : s.counts.bits) {
      if (!(bits & kOne)) continue;
      bool always = !(bits & kZero);
      auto it = s.lastSets.find(key);
      SourceLoc at = k.loc;
      if (it != s.lastSets.end() && !it->second.empty()) at = flow.nodes[*it->second.begin()].op->loc;
      Finding& f = ctx.report(always ? Severity::Error : Severity::Warning, at,
                              "set_flag " + eventText(key) + " is still outstanding when the kernel ends" +
                                  (always ? "" : " on some path") + ": the next kernel inherits the event");
      f.notes.push_back({k.loc, "kernel '" + k.name + "'"});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeSyncEventPairing() { return std::make_unique<SyncEventPairing>(); }

}  // namespace ptov
