#include "analyzer/model/flow.h"

#include <map>

namespace ptov {
namespace {

class FlowBuilder {
 public:
  explicit FlowBuilder(Flow& f) : f_(f) {}

  int add(FlowNode::Kind k, const Stmt* s = nullptr) {
    FlowNode n;
    n.kind = k;
    n.stmt = s;
    if (s && s->kind == Stmt::Kind::OpStmt) n.op = &s->op;
    f_.nodes.push_back(n);
    return static_cast<int>(f_.nodes.size()) - 1;
  }

  void link(int a, int b) {
    f_.nodes[a].succ.push_back(b);
    f_.nodes[b].pred.push_back(a);
  }

  void linkAll(const std::vector<int>& from, int to) {
    for (int a : from) link(a, to);
  }

  std::vector<int> build(const Stmt& s, std::vector<int> preds) {
    switch (s.kind) {
      case Stmt::Kind::OpStmt: {
        int n = add(FlowNode::Kind::Op, &s);
        linkAll(preds, n);
        if (s.op.kind == OpKind::Return) {
          link(n, f_.exit);
          return {};
        }
        if (s.op.kind == OpKind::Branch && blockNodes_) {
          for (const auto& label : s.op.successors) {
            auto it = blockNodes_->find(label);
            if (it != blockNodes_->end()) link(n, it->second);
          }
          return {};
        }
        return {n};
      }
      case Stmt::Kind::Seq:
        for (const auto& c : s.children) preds = build(*c, preds);
        return preds;
      case Stmt::Kind::For: {
        int head = add(FlowNode::Kind::LoopHead, &s);
        linkAll(preds, head);
        std::vector<int> outs = build(*s.children[0], {head});
        linkAll(outs, head);
        auto lb = evalConst(s.lb), ub = evalConst(s.ub), step = evalConst(s.step);
        bool runsAtLeastOnce = s.atLeastOnce || (lb && ub && step && *step > 0 && *ub > *lb);
        if (!runsAtLeastOnce) return {head};
        // The loop cannot be skipped: leave only after a body execution.
        int exitNode = add(FlowNode::Kind::LoopExit, &s);
        linkAll(outs, exitNode);
        return {exitNode};
      }
      case Stmt::Kind::If: {
        auto c = evalConst(s.cond);
        std::vector<int> outs;
        if (!c || *c) {
          auto t = build(*s.children[0], preds);
          outs.insert(outs.end(), t.begin(), t.end());
        }
        if (!c || !*c) {
          auto e = s.children.size() > 1 ? build(*s.children[1], preds) : preds;
          outs.insert(outs.end(), e.begin(), e.end());
        }
        // One join node where the arms meet: without it every later node gets an edge from
        // every arm of every earlier `if`, quadratic in a run of them (2,500 took 10 s).
        if (outs.size() <= 1) return outs;
        int join = add(FlowNode::Kind::Join, &s);
        linkAll(outs, join);
        return {join};
      }
      case Stmt::Kind::While: {
        int head = add(FlowNode::Kind::LoopHead, &s);
        linkAll(preds, head);
        std::vector<int> condOuts = build(*s.children[0], {head});
        std::vector<int> bodyOuts = build(*s.children[1], condOuts);
        linkAll(bodyOuts, head);
        return condOuts;
      }
      case Stmt::Kind::Blocks: {
        std::map<std::string, int> nodes;
        for (size_t i = 0; i < s.children.size(); ++i)
          nodes[s.labels[i]] = add(FlowNode::Kind::Join, s.children[i].get());
        auto* saved = blockNodes_;
        blockNodes_ = &nodes;
        std::vector<int> outs;
        for (size_t i = 0; i < s.children.size(); ++i) {
          int head = nodes[s.labels[i]];
          if (i == 0) linkAll(preds, head);
          auto o = build(*s.children[i], {head});
          outs.insert(outs.end(), o.begin(), o.end());
        }
        blockNodes_ = saved;
        return outs;
      }
    }
    return preds;
  }

 private:
  Flow& f_;
  std::map<std::string, int>* blockNodes_ = nullptr;
};

}  // namespace

Flow Flow::build(const Stmt& body) {
  Flow f;
  FlowBuilder b(f);
  f.entry = b.add(FlowNode::Kind::Entry);
  f.exit = b.add(FlowNode::Kind::Exit);
  auto outs = b.build(body, {f.entry});
  b.linkAll(outs, f.exit);
  return f;
}

}  // namespace ptov
