#pragma once
// Facts of a kernel_entry wrapper and its lanes that are not ops: where each forwarded argument
// comes from, args[] reads, lane-id reads, UB high-water and scratch. Private to
// analyzer/cpp/translate.cpp.
#include "analyzer/cpp/translate_values.h"

namespace ptov::cpp {

class WrapperFacts : public ValueEvaluator {
 public:
  using ValueEvaluator::ValueEvaluator;

 protected:
  void recordConstant(const std::string& name, int64_t v, SourceLocation l, const std::string& enumName) {
    if (!facts_.constants.count(name)) facts_.constants[name] = NamedConstant{loc(l), v, enumName};
  }

  ForwardedArg provenanceOf(const clang::Expr* e, bool pointer) {
    ForwardedArg a;
    a.text = text(e);
    a.pointer = pointer;
    const clang::Expr* s = e->IgnoreParenCasts();
    if (const ValueDecl* d = declOf(s)) {
      auto it = provenance_.find(d);
      if (it != provenance_.end()) {
        ForwardedArg p = it->second;
        p.text = a.text;
        return p;
      }
    }
    // args[i] anywhere in the initialiser (through casts, helpers and unions).
    std::function<void(const clang::Stmt*)> find = [&](const clang::Stmt* x) {
      if (!x || a.argsIndex) return;
      if (const auto* sub = dyn_cast<ArraySubscriptExpr>(x))
        if (isArgs(sub->getBase())) {
          if (auto c = evalConst(value(sub->getIdx()))) a.argsIndex = *c;
          a.source = "args";
          return;
        }
      if (const auto* call = dyn_cast<CallExpr>(x)) {
        // Lane facts by their declaration; which of the lane-id spellings it is picks the source.
        if (const ops::OpRow* in = instrOf(call->getDirectCallee())) {
          using CS = ops::CallShape;
          bool sub = call->getDirectCallee()->getName().contains("sub");
          if (in->shape == CS::LaneId) a.source = sub ? "subblock_idx" : "block_idx";
          if (in->shape == CS::LaneCount) a.source = "block_num";
          if (in->shape == CS::CacheOffset) a.source = "l2_cache_offset";
          if (!a.source.empty()) return;
        }
        // tensor_dim(args, k, d): a dimension of tensor k, not the tensor.
        if (call->getType()->isIntegerType()) {
          ExprPtr v = value(call);
          if (v->kind == Expr::Kind::Param &&
              std::find(facts_.shapeParams.begin(), facts_.shapeParams.end(), v->name) != facts_.shapeParams.end()) {
            a.source = "dim";
            return;
          }
        }
        // tensor_data<T>(args, k): the index is the helper's argument.
        for (unsigned i = 0; i + 1 < call->getNumArgs(); ++i)
          if (isArgs(call->getArg(i))) {
            if (auto c = constant(call->getArg(i + 1))) a.argsIndex = *c;
            a.source = "args";
            return;
          }
      }
      if (const auto* me = dyn_cast<MemberExpr>(x))
        if (me->getMemberDecl()->getNameAsString() == "shapes") a.source = "dim";
      for (const clang::Stmt* c : x->children()) find(c);
    };
    find(e);
    return a;
  }

  void noteArgsRead(const ArraySubscriptExpr* sub) {
    if (!isArgs(sub->getBase())) return;
    ArgUnpack u;
    u.loc = loc(sub->getBeginLoc());
    u.indexText = text(sub->getIdx());
    u.index = evalConst(value(sub->getIdx()));
    // Read as a tensor descriptor when the element is converted to a pointer.
    u.tensor = convertedToPointer(sub);
    if (initializing_) u.var = initializing_->getNameAsString();
    facts_.unpacks.push_back(u);
  }

  bool convertedToPointer(const clang::Expr* e) {
    DynTypedNodeList parents = ctx_.getParents(*e);
    for (int hops = 0; hops < 6 && !parents.empty(); ++hops) {
      const auto* pe = parents[0].get<clang::Expr>();
      if (!pe) return false;
      if (const auto* cast = dyn_cast<CastExpr>(pe)) {
        if (cast->getType()->isPointerType()) return true;
      } else if (!isa<ParenExpr>(pe)) {
        return false;
      }
      parents = ctx_.getParents(*pe);
    }
    return false;
  }

  void laneRead(const CallExpr* call, const std::string& n) {
    facts_.laneReads.push_back(LaneRead{loc(call->getBeginLoc()), n, call->getNumArgs() > 0});
  }

  // Each body's UB high-water: the highest end of its TASSIGNs, barrier scratch tiles excepted.
  void computeHighWater() {
    for (const auto& p : placements_) {
      if (p.tile && scratchTiles_.count(p.tile)) continue;
      auto hw = std::find_if(facts_.highWater.begin(), facts_.highWater.end(),
                             [&](const BodyHighWater& h) { return h.body == p.body; });
      if (hw == facts_.highWater.end()) facts_.highWater.push_back(BodyHighWater{p.loc, p.body, p.end});
      else if (p.end > hw->end) *hw = BodyHighWater{p.loc, p.body, p.end};
    }
  }

  // The UB scratch of an indexed soft barrier: a tile or pointer at a constant address.
  void ubScratchOf(const clang::Expr* ub, const ExprPtr& participants) {
    const clang::Expr* e = ub->IgnoreParenCasts();
    std::optional<int64_t> addr;
    std::string name = text(ub);
    if (const auto* mc = dyn_cast<CXXMemberCallExpr>(e)) e = mc->getImplicitObjectArgument()->IgnoreParenCasts();
    if (const ValueDecl* d = declOf(e)) {
      name = d->getNameAsString();
      auto tile = tiles_.find(d);
      if (tile != tiles_.end()) {
        addr = tile->second.addr;  // its last TASSIGN
        scratchTiles_.insert(d);
      }
      if (!addr)
        if (const auto* vd = dyn_cast<VarDecl>(d))
          if (vd->getInit()) addr = constant(vd->getInit()->IgnoreParenCasts());
    } else {
      addr = constant(e);
    }
    if (!addr) return;
    auto n = evalConst(participants);
    int64_t bytes = n ? *n * 8 * 4 : 0;  // the indexed helper keeps 8 int32 words per participant
    facts_.ubScratch.push_back(UbScratch{loc(ub->getBeginLoc()), name, *addr, bytes});
  }

  void recordForwarded(const CallExpr* call, const FunctionDecl* def) {
    ForwardedCall fc;
    fc.loc = loc(call->getBeginLoc());
    fc.callee = def->getNameAsString();
    for (const ParmVarDecl* p : def->parameters()) {
      fc.paramNames.push_back(p->getNameAsString());
      fc.paramPointer.push_back(p->getType()->isPointerType() || isGlobalTensorType(p->getType()));
    }
    for (const clang::Expr* a : call->arguments()) {
      bool pointer = a->getType()->isPointerType();
      fc.args.push_back(provenanceOf(a, pointer));
    }
    facts_.forwarded.push_back(std::move(fc));
  }
};

}  // namespace ptov::cpp
