#pragma once
// Values and memory origins of C++ expressions: integer values (constants, parameters, lane ids,
// launch shapes, opaque symbols per evaluation), where a pointer, tensor or tile points, and
// helpers evaluated in their inlined instance. Private to analyzer/cpp/translate.cpp.
#include "analyzer/cpp/translate_state.h"

namespace ptov::cpp {

class ValueEvaluator : public ModelState {
 public:
  using ModelState::ModelState;

 protected:
  ExprPtr value(const clang::Expr* e) {
    if (!e) return Expr::unknown("?");
    if (tooDeep(e)) return Expr::unknown("a deep expression");
    if (auto c = constant(e)) return Expr::constant(*c);
    e = e->IgnoreParenCasts();
    if (const auto* init = dyn_cast<CXXDefaultInitExpr>(e)) return value(init->getExpr());
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl()); vd && vd->isStaticLocal()) return staticValue(vd);
      auto it = values_.find(dr->getDecl());
      if (it != values_.end()) return it->second;
      if (ExprPtr lane = builtinLaneVariable(dr->getDecl())) return lane;
      return opaque(dr->getDecl(), dr->getDecl()->getNameAsString());
    }
    if (const auto* sub = dyn_cast<SubstNonTypeTemplateParmExpr>(e)) return value(sub->getReplacement());
    if (const auto* bo = dyn_cast<BinaryOperator>(e)) {
      ExprPtr a = value(bo->getLHS()), b = value(bo->getRHS());
      using K = Expr::Kind;
      switch (bo->getOpcode()) {
        case BO_Add: return Expr::binary(K::Add, a, b);
        case BO_Sub: return Expr::binary(K::Sub, a, b);
        case BO_Mul: return Expr::binary(K::Mul, a, b);
        case BO_Div: return Expr::binary(K::Div, a, b);
        case BO_Rem: return Expr::binary(K::Rem, a, b);
        case BO_LT: return Expr::cmp("slt", a, b);
        case BO_LE: return Expr::cmp("sle", a, b);
        case BO_GT: return Expr::cmp("sgt", a, b);
        case BO_GE: return Expr::cmp("sge", a, b);
        case BO_EQ: return Expr::cmp("eq", a, b);
        case BO_NE: return Expr::cmp("ne", a, b);
        case BO_LAnd: return exprAnd(a, b);
        case BO_LOr: return exprOr(a, b);
        case BO_And:
          // x & ~(2^k - 1), rounding down to a multiple of 2^k: floor(x / 2^k) * 2^k, which is
          // what the solver's division by a positive number gives (`(n + 7) & ~7` pads to 8).
          if (auto m = evalConst(b); m && *m < 0 && *m > INT64_MIN && ((-*m) & (-*m - 1)) == 0)
            return Expr::binary(K::Mul, Expr::binary(K::Div, a, Expr::constant(-*m)), Expr::constant(-*m));
          break;
        default: break;
      }
    }
    if (const auto* uo = dyn_cast<UnaryOperator>(e)) {
      if (uo->getOpcode() == UO_LNot) return exprNot(value(uo->getSubExpr()));
      if (uo->getOpcode() == UO_Minus) return Expr::binary(Expr::Kind::Sub, Expr::constant(0), value(uo->getSubExpr()));
    }
    if (const auto* co = dyn_cast<ConditionalOperator>(e)) {
      // Only the arm that runs when the condition is a constant (`AutoToken ? GetNextId() : Id`).
      if (auto c = constant(co->getCond())) return value(*c ? co->getTrueExpr() : co->getFalseExpr());
      return Expr::select(value(co->getCond()), value(co->getTrueExpr()), value(co->getFalseExpr()));
    }
    if (const auto* call = dyn_cast<CallExpr>(e)) {
      std::string n = calleeName(call);
      if (const VarDecl* st = staticOfCall(call)) return staticValue(st);
      if (ExprPtr v = statefulValue(call)) return v;
      if (const ops::OpRow* in = instrOf(call->getDirectCallee())) {
        if (in->shape == ops::CallShape::LaneId) return Expr::blockIdx(call->getNumArgs() > 0 ? "logical" : "physical");
        if (in->shape == ops::CallShape::LaneCount) return Expr::blockNum();
        if (in->shape == ops::CallShape::CvSlot) return commSlot(call);
      }
      // The library's min / max (std::, the prelude's); a user's own is a helper below.
      const FunctionDecl* callee = call->getDirectCallee();
      if (callee && !isUserFunction(callee) && (n == "min" || n == "max") && call->getNumArgs() == 2)
        return Expr::binary(n == "min" ? Expr::Kind::Min : Expr::Kind::Max, value(call->getArg(0)),
                            value(call->getArg(1)));
      // A helper that computes a value of its parameters (active lane counts, clamped work, ...).
      if (const CompoundStmt* body = evaluableBody(call); body && callee->getReturnType()->isIntegerType())
        if (ExprPtr v = inCallee(call, callee, [&] { return helperValue(*body); })) return v;
    }
    if (ExprPtr shape = shapeParam(e)) return shape;
    if (const auto* me = dyn_cast<MemberExpr>(e))
      if (const auto* field = dyn_cast<FieldDecl>(me->getMemberDecl())) {
        if (auto c = constantField(me->getBase(), field)) return Expr::constant(*c);
        auto known = fields_.find({declOf(me->getBase()), field});
        if (known != fields_.end()) return known->second;
        if (const VarDecl* object = objectOf(me->getBase()))
          if (auto set = fields_.find({object, field}); set != fields_.end()) return set->second;
      }
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e))
      if (isArgs(sub->getBase())) {
        auto idx = constant(sub->getIdx());
        if (!idx)
          if (auto v = evalConst(value(sub->getIdx()))) idx = *v;
        return Expr::param(idx ? "args[" + std::to_string(*idx) + "]" : text(e), -1);
      }
    return opaque(e, text(e));
  }

  // A field of a constant object (`const Events ev{...}`, `constexpr TSync_Custom<...> s = {2}`),
  // read here or through the parameters of inlined calls it was passed to.
  std::optional<int64_t> constantField(const clang::Expr* object, const FieldDecl* field) {
    const ValueDecl* d = declOf(object->IgnoreParenImpCasts());
    if (auto bound = objects_.find(d); bound != objects_.end()) d = bound->second;
    const auto* vd = dyn_cast_or_null<VarDecl>(d);
    if (!vd || !vd->getType().isConstQualified() || !vd->getInit() || vd->getType()->isReferenceType())
      return std::nullopt;
    const APValue* v = vd->evaluateValue();
    if (!v || !v->isStruct() || field->getFieldIndex() >= v->getStructNumFields()) return std::nullopt;
    const APValue& f = v->getStructField(field->getFieldIndex());
    if (!f.isInt()) return std::nullopt;
    return f.getInt().getExtValue();
  }

  // The slot TSYNC_CVID<SlotBytes, MaxCores> returns: the cube core's id modulo MaxCores (the
  // vector core reads the one its cube published), not known here but in [0, MaxCores) and the
  // same for the whole run of the kernel (a named value, not an unknown that a loop renews).
  ExprPtr commSlot(const CallExpr* call) {
    ExprPtr slot = Expr::param("TSYNC_CVID@" + std::to_string(loc(call->getBeginLoc()).line), -1);
    int64_t cores = 25;  // kCvMaxCores, the default
    if (const TemplateArgumentList* args = call->getDirectCallee()->getTemplateSpecializationArgs();
        args && args->size() > 1 && (*args)[1].getKind() == TemplateArgument::Integral)
      cores = (*args)[1].getAsIntegral().getExtValue();
    facts_.bounded.push_back({slot, 0, cores - 1});
    return slot;
  }

  // The prelude's CCE builtin variables `block_idx` / `block_num` (not a user's of that name).
  ExprPtr builtinLaneVariable(const ValueDecl* d) {
    const auto* vd = dyn_cast<VarDecl>(d);
    if (!vd || !vd->hasGlobalStorage() || inUserCode(ctx_.getSourceManager(), vd->getLocation())) return nullptr;
    if (vd->getName() == "block_idx") return Expr::blockIdx("physical");
    if (vd->getName() == "block_num") return Expr::blockNum();
    return nullptr;
  }

  // The args slot of a runtime tensor descriptor: `args[k]` (through casts) or a local pointer
  // initialised from it.
  std::map<const ValueDecl*, int64_t> tensorOfArgs_;
  std::optional<int64_t> argsTensorIndex(const clang::Expr* e) {
    e = e->IgnoreParenCasts();
    if (const ValueDecl* d = declOf(e)) {
      auto it = tensorOfArgs_.find(d);
      if (it != tensorOfArgs_.end()) return it->second;
    }
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e))
      if (isArgs(sub->getBase())) return evalConst(value(sub->getIdx()));
    return std::nullopt;
  }

  // `args[k]->shapes[d]`: a dimension of a launched tensor, the same on every lane and never
  // negative. The field is the prelude's runtime `Tensor::shapes`.
  ExprPtr shapeParam(const clang::Expr* e) {
    const auto* sub = dyn_cast<ArraySubscriptExpr>(e);
    const auto* member = sub ? dyn_cast<MemberExpr>(sub->getBase()->IgnoreParenImpCasts()) : nullptr;
    const auto* field = member ? dyn_cast<FieldDecl>(member->getMemberDecl()) : nullptr;
    if (!field || field->getName() != "shapes" || inUserCode(ctx_.getSourceManager(), field->getLocation())) return nullptr;
    auto k = argsTensorIndex(member->getBase());
    auto d = evalConst(value(sub->getIdx()));
    if (!k || !d) return nullptr;
    std::string name = "args[" + std::to_string(*k) + "].shapes[" + std::to_string(*d) + "]";
    if (std::find(facts_.shapeParams.begin(), facts_.shapeParams.end(), name) == facts_.shapeParams.end())
      facts_.shapeParams.push_back(name);
    return Expr::param(name, -1);
  }

  // The value a helper body returns, for bodies of local integer declarations, static_asserts,
  // `if (c) v = e;` clamps, `if (c) return a;` early returns (`c ? a : rest`), constant ifs
  // (`if constexpr (Policy == ...)`: only the arm that runs), switches (switchValue) and a final
  // return. Null for any other statement (the call stays unknown). `result` maps the returned
  // expression: its value by default, a field of a returned aggregate for fieldOfCall.
  using ResultOf = std::function<ExprPtr(const clang::Expr*)>;
  ExprPtr helperValue(const CompoundStmt& body, const ResultOf& result = nullptr) {
    return helperValue(std::vector<const clang::Stmt*>(body.body_begin(), body.body_end()), 0, result);
  }

  ExprPtr helperValue(const std::vector<const clang::Stmt*>& stmts, size_t from, const ResultOf& result) {
    auto returned = [&](const clang::Expr* e) -> ExprPtr { return !e ? nullptr : result ? result(e) : value(e); };
    for (size_t i = from; i < stmts.size(); ++i) {
      const clang::Stmt* st = stmts[i];
      if (isa<NullStmt>(st)) continue;
      std::vector<const clang::Stmt*> rest(stmts.begin() + static_cast<long>(i) + 1, stmts.end());
      if (const auto* ds = dyn_cast<DeclStmt>(st)) {
        for (const Decl* d : ds->decls()) {
          if (isa<StaticAssertDecl>(d)) continue;
          const auto* vd = dyn_cast<VarDecl>(d);
          if (!vd || !vd->getInit()) return nullptr;
          // A descriptor pointer taken from args[k] (`Tensor* t = ...(args[k])`): its fields are
          // launch parameters (shapeParam).
          if (vd->getType()->isPointerType()) {
            if (auto k = argsTensorIndex(vd->getInit())) tensorOfArgs_[vd] = *k;
            else return nullptr;
            continue;
          }
          if (!vd->getType()->isIntegralOrEnumerationType()) return nullptr;
          values_[vd] = value(vd->getInit());
        }
        continue;
      }
      if (const auto* sw = dyn_cast<SwitchStmt>(st)) return switchValue(*sw, rest, result);
      if (const auto* is = dyn_cast<IfStmt>(st)) {
        if (auto c = constantCondition(is)) {  // the arm that runs, then what follows
          std::vector<const clang::Stmt*> chosen = statementsOf(*c ? is->getThen() : is->getElse());
          chosen.insert(chosen.end(), rest.begin(), rest.end());
          return helperValue(chosen, 0, result);
        }
        if (is->getElse() || is->getInit() || is->getConditionVariable()) return nullptr;
        std::vector<const clang::Stmt*> then = statementsOf(is->getThen());
        if (then.size() != 1) return nullptr;
        if (const auto* ret = dyn_cast<ReturnStmt>(then.front())) {  // if (c) return a; ...
          ExprPtr early = returned(ret->getRetValue()), cond = value(is->getCond());
          ExprPtr later = early ? helperValue(stmts, i + 1, result) : nullptr;
          return later ? Expr::select(cond, early, later) : nullptr;
        }
        const auto* as = dyn_cast<BinaryOperator>(then.front());
        const ValueDecl* target = as && as->getOpcode() == BO_Assign ? declOf(as->getLHS()) : nullptr;
        if (!target || !values_.count(target)) return nullptr;
        values_[target] = Expr::select(value(is->getCond()), value(as->getRHS()), values_[target]);
        continue;
      }
      if (const auto* ret = dyn_cast<ReturnStmt>(st)) return returned(ret->getRetValue());
      return nullptr;
    }
    return nullptr;
  }

  // A helper's result through `switch (mode)`: on a constant, the group it selects then what
  // follows; otherwise a choice by the case values, each group's result (a group without a
  // result of its own, or a case value that is not a constant, leaves it unknown).
  ExprPtr switchValue(const SwitchStmt& sw, const std::vector<const clang::Stmt*>& rest, const ResultOf& result) {
    auto groups = caseGroups(sw);
    if (sw.getInit() || sw.getConditionVariable() || !groups) return nullptr;
    ExprPtr cond = value(sw.getCond());
    auto resultOf = [&](const CaseGroup* g) {
      std::vector<const clang::Stmt*> next = g ? g->stmts : std::vector<const clang::Stmt*>{};
      next.insert(next.end(), rest.begin(), rest.end());
      return helperValue(next, 0, result);
    };
    if (auto c = evalConst(cond)) return resultOf(caseSelected(*groups, *c, ctx_));
    const CaseGroup* fallback = nullptr;
    for (const CaseGroup& g : *groups)
      if (g.isDefault) fallback = &g;
    ExprPtr chain = resultOf(fallback);
    for (auto g = groups->rbegin(); g != groups->rend() && chain; ++g) {
      if (g->values.empty()) continue;
      ExprPtr here = resultOf(&*g), matches;
      for (const clang::Expr* v : g->values) {
        auto c = constant(v);
        if (!c) return nullptr;
        ExprPtr is = Expr::cmp("eq", cond, Expr::constant(*c));
        matches = matches ? exprOr(matches, is) : is;
      }
      chain = here ? Expr::select(matches, here, chain) : nullptr;
    }
    return chain;
  }

  // The body of a direct callee helperValue can evaluate in its inlined instance: a block, not
  // being inlined already, and every parameter given an argument; null otherwise.
  const CompoundStmt* evaluableBody(const CallExpr* call) {
    const FunctionDecl* fd = call->getDirectCallee();
    if (!fd || stack_.count(fd) || fd->getNumParams() != call->getNumArgs()) return nullptr;
    return dyn_cast_or_null<CompoundStmt>(fd->getBody());
  }

  // A field of the aggregate a helper returns (`return Config{!first, AccPhase::Final};`), or null.
  ExprPtr fieldOfCall(const CallExpr* call, const FieldDecl* field) {
    const CompoundStmt* body = evaluableBody(call);
    if (!body || !isUserFunction(call->getDirectCallee())) return nullptr;
    ResultOf member = [&](const clang::Expr* e) { return fieldOfAggregate(e, field); };
    return inCallee(call, call->getDirectCallee(), [&] { return helperValue(*body, member); });
  }

  // A field of an aggregate initialiser (`Config{a, b}`, through casts and temporaries), or null.
  ExprPtr fieldOfAggregate(const clang::Expr* e, const FieldDecl* field) {
    e = e->IgnoreImplicit();
    if (const auto* fc = dyn_cast<CXXFunctionalCastExpr>(e)) e = fc->getSubExpr()->IgnoreImplicit();
    const auto* list = dyn_cast<InitListExpr>(e);
    if (!list || field->getFieldIndex() >= list->getNumInits()) return nullptr;
    return value(list->getInit(field->getFieldIndex()));
  }

  Origin originOf(const clang::Expr* e) {
    Origin none;
    if (!e) return none;
    e = e->IgnoreParenCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      auto it = origins_.find(dr->getDecl());
      if (it != origins_.end()) return it->second;
      return none;
    }
    if (const auto* bo = dyn_cast<BinaryOperator>(e)) {
      // An address held as an integer (`reinterpret_cast<uint64_t>(p)`): `+`/`-` of an offset
      // and alignment masks (`raw & ~63`) stay in the same buffer; the byte offset is kept as an
      // expression of the integer value.
      if (!bo->getType()->isPointerType() && bo->getType()->isIntegerType()) {
        BinaryOperatorKind opc = bo->getOpcode();
        if (opc == BO_Add || opc == BO_Sub || opc == BO_And || opc == BO_Or) {
          Origin o = originOf(bo->getLHS());
          // `end - first` of two addresses is a length, not an address.
          if (opc == BO_Sub && originOf(bo->getRHS()).known()) return none;
          bool lhsAddress = o.known();
          if (!o.known() && opc != BO_Sub) o = originOf(bo->getRHS());
          if (o.known()) o.offset = nullptr;  // a byte offset now, not elements: not kept
          if (o.known() && o.bytes && opc != BO_And && opc != BO_Or) {
            ExprPtr off = value(lhsAddress ? bo->getRHS() : bo->getLHS());
            o.bytes = Expr::binary(opc == BO_Sub ? Expr::Kind::Sub : Expr::Kind::Add, o.bytes, off);
          } else {
            o.bytes = nullptr;  // an alignment mask moves the address by an amount not known here
          }
          return o;
        }
        return none;
      }
      if (bo->getOpcode() == BO_Add || bo->getOpcode() == BO_Sub) {
        bool lhsPtr = bo->getLHS()->getType()->isPointerType();
        Origin o = originOf(lhsPtr ? bo->getLHS() : bo->getRHS());
        if (!o.known()) return o;
        const clang::Expr* offExpr = (lhsPtr ? bo->getRHS() : bo->getLHS())->IgnoreParenCasts();
        // A tensor descriptor's own start_offset is part of the buffer, not an offset into it.
        if (const auto* me = dyn_cast<MemberExpr>(offExpr))
          if (me->getMemberDecl()->getNameAsString() == "start_offset") return o;
        ExprPtr off = value(offExpr);
        if (bo->getOpcode() == BO_Sub) off = Expr::binary(Expr::Kind::Sub, Expr::constant(0), off);
        o.offset = o.offset ? Expr::binary(Expr::Kind::Add, o.offset, off) : off;
        o.bytes = addBytes(o.bytes, off, (lhsPtr ? bo->getLHS() : bo->getRHS())->getType());
        return o;
      }
    }
    if (const auto* uo = dyn_cast<UnaryOperator>(e))
      if (uo->getOpcode() == UO_AddrOf) {
        if (const auto* sub = dyn_cast<ArraySubscriptExpr>(uo->getSubExpr()->IgnoreParenCasts())) {
          Origin o = originOf(sub->getBase());
          if (o.known()) {
            o.offset = o.offset ? Expr::binary(Expr::Kind::Add, o.offset, value(sub->getIdx())) : value(sub->getIdx());
            o.bytes = addBytes(o.bytes, value(sub->getIdx()), sub->getBase()->getType());
          }
          return o;
        }
        return originOf(uo->getSubExpr());
      }
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e))
      if (isArgs(sub->getBase())) {
        Origin o;
        ExprPtr idx = value(sub->getIdx());
        auto c = evalConst(idx);
        o.ref.value = c ? "args[" + std::to_string(*c) + "]" : "args[" + toString(idx) + "]";
        o.bytes = Expr::constant(0);  // the buffer args[i] names starts at its own address
        return o;
      }
    if (const auto* me = dyn_cast<MemberExpr>(e)) return originOf(me->getBase());
    if (const auto* call = dyn_cast<CallExpr>(e)) {
      if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call)) return originOf(mc->getImplicitObjectArgument());
      // A helper returning a pointer into one of its arguments (tensor_data<T>(args, i), ...).
      if (const FunctionDecl* fd = call->getDirectCallee())
        if (fd->getReturnType()->isPointerType() && fd->hasBody() && !stack_.count(fd)) {
          const ReturnStmt* ret = nullptr;
          for (const clang::Stmt* s : cast<CompoundStmt>(fd->getBody())->body())
            if (const auto* r = dyn_cast<ReturnStmt>(s)) ret = r;
          if (ret && ret->getRetValue() && fd->getNumParams() == call->getNumArgs())
            return inCallee(call, fd, [&] {
              for (const clang::Stmt* s : cast<CompoundStmt>(fd->getBody())->body())
                if (const auto* ds = dyn_cast<DeclStmt>(s))
                  for (const Decl* d : ds->decls())
                    if (const auto* vd = dyn_cast<VarDecl>(d); vd && vd->getInit()) {
                      if (vd->getType()->isPointerType()) origins_[vd] = originOf(vd->getInit());
                      else if (vd->getType()->isIntegralOrEnumerationType()) values_[vd] = value(vd->getInit());
                    }
              return originOf(ret->getRetValue());
            });
        }
    }
    if (const auto* ce = dyn_cast<CXXConstructExpr>(e))
      if (ce->getNumArgs() > 0) return originOf(ce->getArg(0));
    return none;
  }

  std::optional<AddrBound> addrBound(const clang::Expr* e) {
    if (!e) return std::nullopt;
    e = e->IgnoreParenCasts();
    if (const ValueDecl* d = declOf(e)) {
      auto it = addrBounds_.find(d);
      if (it != addrBounds_.end()) return it->second;
      if (d->getType()->isPointerType()) return AddrBound{AddrBound::Rel::Exact, d, 0};
      return std::nullopt;
    }
    const auto* bo = dyn_cast<BinaryOperator>(e);
    if (!bo) return std::nullopt;
    if ((bo->getOpcode() == BO_Add || bo->getOpcode() == BO_Sub) && !bo->getType()->isPointerType()) {
      auto a = addrBound(bo->getLHS());
      auto k = evalConst(value(bo->getRHS()));
      if (!a || !k) return std::nullopt;
      a->c += bo->getOpcode() == BO_Add ? *k : -*k;
      return a;
    }
    if (bo->getOpcode() == BO_And) {  // x & ~(L - 1), L a power of two
      auto a = addrBound(bo->getLHS());
      auto mask = evalConst(value(bo->getRHS()));
      if (!a || !mask || a->rel != AddrBound::Rel::Exact) return std::nullopt;
      int64_t line = -*mask;  // ~(L - 1) == -L
      if (line <= 0 || (line & (line - 1)) != 0) return std::nullopt;
      // Aligned down: at most x. With x = X + c, c >= L - 1, at least X + c - (L - 1).
      if (a->c >= line - 1) return AddrBound{AddrBound::Rel::AtLeast, a->base, a->c - (line - 1)};
      return AddrBound{AddrBound::Rel::AtMost, a->base, a->c, line};
    }
    return std::nullopt;
  }

  // `for (v = lo; v < hi; ...)` with lo <= X + a < X + b <= hi for one address X.
  bool provablyNonEmpty(const clang::Expr* lo, const clang::Expr* hi) {
    auto l = addrBound(lo), h = addrBound(hi);
    if (!l || !h || l->base != h->base) return false;
    bool lowOk = l->rel != AddrBound::Rel::AtLeast, highOk = h->rel != AddrBound::Rel::AtMost;
    return lowOk && highOk && h->c > l->c;
  }

  // Runs `body` with `fd`'s parameters bound to the call's arguments; afterwards the caller's
  // bindings are back as they were (the callee's locals go out of scope).
  template <class Call, class F>
  std::invoke_result_t<F> inCallee(const Call* call, const FunctionDecl* fd, F&& body) {
    auto values = values_;
    auto origins = origins_;
    auto tiles = tiles_;
    auto aliases = argsAliases_;
    auto bounds = addrBounds_;
    auto objects = objects_;
    auto refObjects = refObjects_;
    // `a = b` through a member operator: the object is the first argument, not a parameter.
    const unsigned skip = isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(fd) ? 1 : 0;
    // A variable of the caller passed to a non-const reference parameter: what the callee leaves
    // in the parameter is the caller's variable after the call.
    std::vector<std::pair<const ParmVarDecl*, const ValueDecl*>> byReference;
    for (unsigned i = 0; i < fd->getNumParams() && i + skip < call->getNumArgs(); ++i) {
      const ParmVarDecl* p = fd->getParamDecl(i);
      const clang::Expr* arg = call->getArg(i + skip);
      bindParam(p, arg);
      if (p->getType()->isReferenceType() && p->getType().getNonReferenceType()->isRecordType())
        if (const VarDecl* object = objectOf(arg)) refObjects_[p] = object;
      if (p->getType()->isLValueReferenceType() && !p->getType().getNonReferenceType().isConstQualified() &&
          !tileInfoOf(p->getType()))
        if (const auto* dr = dyn_cast<DeclRefExpr>(arg->IgnoreParenCasts()))
          byReference.push_back({p, dr->getDecl()});
    }
    // A loop's flag passed by reference is followed in order in the callee too.
    for (const auto& [p, d] : byReference)
      if (auto f = flagDepth_.find(d); f != flagDepth_.end()) flagDepth_[p] = f->second;
    stack_.insert(fd);
    const int callerInstance = instance_;
    instance_ = ++instances_;
    auto restore = [&] {
      std::vector<std::tuple<const ValueDecl*, ExprPtr, std::optional<Origin>>> written;
      for (const auto& [p, d] : byReference) {
        auto v = values_.find(p);
        auto o = origins_.find(p);
        written.emplace_back(d, v == values_.end() ? nullptr : v->second,
                             o == origins_.end() ? std::nullopt : std::optional<Origin>(o->second));
      }
      for (const auto& [p, d] : byReference) flagDepth_.erase(p);
      instance_ = callerInstance;
      stack_.erase(fd);
      values_ = std::move(values);
      origins_ = std::move(origins);
      for (const auto& [d, v, o] : written) {
        if (v) values_[d] = v;
        if (o) origins_[d] = *o;
      }
      tiles_ = std::move(tiles);
      argsAliases_ = std::move(aliases);
      addrBounds_ = std::move(bounds);
      objects_ = std::move(objects);
      refObjects_ = std::move(refObjects);
    };
    if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
      body();
      restore();
    } else {
      auto result = body();
      restore();
      return result;
    }
  }

  // The variable an object expression denotes: a local, the caller's object a reference parameter
  // is bound to, `this` / `*this` in an inlined member, or a member call that returns the object
  // it is called on (CRTP's `self()`); null when not known.
  const VarDecl* objectOf(const clang::Expr* e) {
    e = e->IgnoreParenCasts();
    if (isa<CXXThisExpr>(e)) return thisObjects_.empty() ? nullptr : thisObjects_.back();
    if (const auto* uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_Deref) return objectOf(uo->getSubExpr());
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      if (auto bound = refObjects_.find(dr->getDecl()); bound != refObjects_.end()) return bound->second;
      const auto* vd = dyn_cast<VarDecl>(dr->getDecl());
      return vd && vd->getType()->isRecordType() ? vd : nullptr;
    }
    const auto* mc = dyn_cast<CXXMemberCallExpr>(e);
    const CXXMethodDecl* m = mc ? mc->getMethodDecl() : nullptr;
    if (!m || !m->getReturnType()->isReferenceType() || thisObjects_.size() > 16) return nullptr;
    const FunctionDecl* def = m->getDefinition();
    const auto* body = def ? dyn_cast_or_null<CompoundStmt>(def->getBody()) : nullptr;
    const auto* ret = body && body->size() == 1 ? dyn_cast<ReturnStmt>(body->body_front()) : nullptr;
    if (!ret || !ret->getRetValue()) return nullptr;
    thisObjects_.push_back(objectOf(mc->getImplicitObjectArgument()));
    const VarDecl* object = objectOf(ret->getRetValue());
    thisObjects_.pop_back();
    return object;
  }

  // A function-static local's value now, its initialiser's the first time it is reached.
  ExprPtr staticValue(const VarDecl* vd) {
    auto [it, fresh] = statics_.try_emplace(vd);
    if (fresh && staticsUnknown_) it->second = Expr::unknown(uniqueName(vd->getNameAsString() + " (changed)"));
    else if (fresh) it->second = vd->getInit() ? value(vd->getInit()) : Expr::constant(0);
    return it->second;
  }

  // The function-static local a call returns a reference to (`static T v = init; return v;`), or
  // null.
  const VarDecl* staticOfCall(const CallExpr* call) {
    const FunctionDecl* fd = call->getDirectCallee();
    if (!fd || !fd->getReturnType()->isLValueReferenceType()) return nullptr;
    const FunctionDecl* def = fd->getDefinition();
    const auto* body = def ? dyn_cast_or_null<CompoundStmt>(def->getBody()) : nullptr;
    if (!body || body->size() == 0) return nullptr;
    const auto* ret = dyn_cast<ReturnStmt>(body->body_back());
    const auto* dr = ret && ret->getRetValue() ? dyn_cast<DeclRefExpr>(ret->getRetValue()->IgnoreParenImpCasts()) : nullptr;
    const auto* vd = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    return vd && vd->isStaticLocal() && vd->getDeclContext() == def ? vd : nullptr;
  }

  // Whether a function (or anything it calls, its constructors' member initialisers included)
  // assigns a function-static local.
  bool changesStatics(const FunctionDecl* fd) {
    const FunctionDecl* def = fd ? fd->getDefinition() : nullptr;
    if (!def || !def->hasBody()) return false;
    auto [it, fresh] = changesStatics_.try_emplace(def, false);  // false while being scanned
    if (!fresh) return it->second;
    std::vector<const clang::Stmt*> todo{def->getBody()};
    if (const auto* ctor = dyn_cast<CXXConstructorDecl>(def))
      for (const CXXCtorInitializer* init : ctor->inits()) todo.push_back(init->getInit());
    return changesStatics_[def] = changesStatics(std::move(todo));
  }
  bool changesStatics(std::vector<const clang::Stmt*> todo) {
    bool changes = false;
    while (!todo.empty() && !changes) {
      const clang::Stmt* s = todo.back();
      todo.pop_back();
      if (!s) continue;
      if (const auto* bo = dyn_cast<BinaryOperator>(s); bo && bo->isAssignmentOp()) changes |= staticPlace(bo->getLHS()) != nullptr;
      if (const auto* uo = dyn_cast<UnaryOperator>(s); uo && uo->isIncrementDecrementOp()) changes |= staticPlace(uo->getSubExpr()) != nullptr;
      if (const auto* call = dyn_cast<CallExpr>(s)) changes |= changesStatics(call->getDirectCallee());
      if (const auto* ce = dyn_cast<CXXConstructExpr>(s)) changes |= changesStatics(ce->getConstructor());
      if (const auto* di = dyn_cast<CXXDefaultInitExpr>(s)) todo.push_back(di->getExpr());
      for (const clang::Stmt* c : s->children()) todo.push_back(c);
    }
    return changes;
  }

  // The function-static local an assignment's left side names (directly or through a call that
  // returns a reference to it), or null.
  const VarDecl* staticPlace(const clang::Expr* lhs) {
    lhs = lhs->IgnoreParenCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(lhs))
      if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl()); vd && vd->isStaticLocal()) return vd;
    if (const auto* call = dyn_cast<CallExpr>(lhs)) return staticOfCall(call);
    return nullptr;
  }

  // A static's new value; in a loop or a non-constant switch (not followed in order) not known.
  void setStatic(const VarDecl* vd, ExprPtr v, const clang::Stmt* by) {
    staticValue(vd);
    statics_[vd] = unmergedDepth_ > 0 ? opaque(by, vd->getNameAsString() + "@" + std::to_string(loc(by->getBeginLoc()).line))
                                      : std::move(v);
  }

  // The value of a call of a helper that changes a static (pto-isa's EventIdCounter::GetNextId:
  // `id = NextId(); NextId() = (id + 1) % 8; return id;`): its straight-line body run once per
  // call and instance, its assignments to statics kept. Null for a call of anything else; a body
  // of any other form leaves the statics it changes and its value unknown.
  ExprPtr statefulValue(const CallExpr* call) {
    const FunctionDecl* fd = call->getDirectCallee();
    if (!fd || fd->getReturnType()->isVoidType() || !changesStatics(fd) || stack_.count(fd->getDefinition())) return nullptr;
    auto [it, fresh] = statefulResults_.try_emplace({call, instance_});
    if (!fresh) return it->second;
    const FunctionDecl* def = fd->getDefinition();
    ExprPtr result = inCallee(call, def, [&]() -> ExprPtr {
      for (const clang::Stmt* s : statementsOf(def->getBody())) {
        if (const auto* ds = dyn_cast<DeclStmt>(s)) {
          for (const Decl* d : ds->decls())
            if (const auto* vd = dyn_cast<VarDecl>(d)) {
              if (vd->isStaticLocal()) staticValue(vd);
              else values_[vd] = vd->getInit() ? value(vd->getInit()) : opaque(vd, vd->getNameAsString());
            }
        } else if (const auto* bo = dyn_cast<BinaryOperator>(s); bo && bo->getOpcode() == BO_Assign) {
          ExprPtr v = value(bo->getRHS());
          if (const VarDecl* st = staticPlace(bo->getLHS())) setStatic(st, v, bo);
          else if (const ValueDecl* local = declOf(bo->getLHS())) values_[local] = v;
          else break;
        } else if (const auto* rs = dyn_cast<ReturnStmt>(s)) {
          return rs->getRetValue() ? value(rs->getRetValue()) : nullptr;
        } else if (!isa<NullStmt>(s)) {
          break;
        }
      }
      return nullptr;
    });
    if (!result) {  // a form not followed: what it changes is not known
      havocStatics();
      result = opaque(call, text(call));
    }
    return it->second = result;
  }

  // Every static becomes unknown, also one not reached yet (a loop body that changes one, a
  // helper not followed): which one a function changes is not tracked.
  bool staticsUnknown_ = false;
  void havocStatics() {
    staticsUnknown_ = true;
    for (auto& [vd, v] : statics_) v = Expr::unknown(uniqueName(vd->getNameAsString() + " (changed)"));
  }

  void bindParam(const ParmVarDecl* p, const clang::Expr* arg) {
    if (isArgs(arg)) argsAliases_.insert(p);
    QualType t = p->getType();
    if (tileInfoOf(t)) {
      if (const ValueDecl* d = declOf(arg)) {
        if (tiles_.count(d)) tiles_[p] = tiles_[d];
        if (origins_.count(d)) origins_[p] = origins_[d];
      }
      return;
    }
    if (t.getNonReferenceType()->isRecordType()) bindObject(p, arg);
    Origin o = originOf(arg);
    if (o.known()) origins_[p] = o;
    values_[p] = value(arg);
    if (auto b = addrBound(arg)) addrBounds_[p] = *b;
  }

  // A struct passed on: the caller's constant object (constantField reads it), unless the callee
  // may change the copy or reference it was given.
  void bindObject(const ParmVarDecl* p, const clang::Expr* arg) {
    const clang::Expr* source = arg->IgnoreParenImpCasts();
    if (const auto* copy = dyn_cast<CXXConstructExpr>(source); copy && copy->getNumArgs() == 1)
      source = copy->getArg(0);
    const auto* vd = dyn_cast_or_null<VarDecl>(declOf(source));
    if (!vd) return;
    if (auto bound = objects_.find(vd); bound != objects_.end()) vd = bound->second;
    if (!vd->getType().isConstQualified()) return;
    if (!p->getType().getNonReferenceType().isConstQualified() &&
        mayChangeObject(*cast<FunctionDecl>(p->getDeclContext()), p))
      return;
    objects_[p] = vd;
  }

  // The value of an if's condition when it is a constant: `if constexpr`, a literal, or a bound
  // parameter of an inlined helper (`if (publish)` with publish = true).
  std::optional<int64_t> constantCondition(const IfStmt* is) {
    if (is->getInit() || is->getConditionVariable()) return std::nullopt;
    if (auto c = constant(is->getCond())) return c;
    return evalConst(value(is->getCond()));
  }

  // A tile operand: the tile declaration (in its inlined instance) it names. One that cannot be
  // traced is a gap with a value of its own, so it never aliases another tile by spelling.
  MemRef tileRef(const clang::Expr* e) {
    Origin o = originOf(e);
    if (o.known()) return o.ref;
    gap(ModelGap::Kind::UnresolvedAddress, e->getBeginLoc(), "tile operand '" + text(e) + "'");
    MemRef m;
    m.space = MemSpace::UB;
    m.value = uniqueName("<untraced tile>");
    return m;
  }

  bool isTileExpr(const clang::Expr* e) {
    if (tileInfoOf(e->getType())) return true;
    const ValueDecl* d = declOf(e);
    return d && tiles_.count(d);
  }

  // `bytes` moved by `n` elements of what pointer type `ptr` points to (null: not known).
  ExprPtr addBytes(const ExprPtr& bytes, const ExprPtr& n, QualType ptr) {
    if (!bytes || !n || !ptr->isPointerType()) return nullptr;
    QualType pointee = ptr->getPointeeType();
    int64_t size = pointee->isVoidType() ? 1 : 0;  // GNU void* arithmetic: bytes
    if (!size && !pointee->isIncompleteType() && !pointee->isDependentType())
      size = ctx_.getTypeSizeInChars(pointee).getQuantity();
    if (size <= 0) return nullptr;
    return Expr::binary(Expr::Kind::Add, bytes, Expr::binary(Expr::Kind::Mul, n, Expr::constant(size)));
  }

  // A GM operand: its buffer (an address that cannot be traced is a gap, never "no buffer"), and,
  // when the GlobalTensor's shape and strides are known (static, or given to its constructor) and
  // the bytes from the buffer's base are known, the bytes it spans ([first element, last
  // element]), so two accesses of one buffer at different offsets (double buffering of
  // `x + i * 64`) are told apart.
  MemRef gmRef(const clang::Expr* e, const std::string& what) {
    Origin o = originOf(e);
    if (!o.known()) gap(ModelGap::Kind::UnresolvedAddress, e->getBeginLoc(), what + " '" + text(e) + "'");
    if (!o.known() || !o.bytes) return o.ref;
    ExprPtr span;
    if (auto fixed = globalTensorBytes(e->getType())) {
      span = Expr::constant(fixed->span);
      o.ref.rows = fixed->rows;
      o.ref.rowBytes = fixed->rowBytes;
      o.ref.rowStrideBytes = fixed->strideBytes;
    } else if (const ValueDecl* d = declOf(e->IgnoreImplicit()); d && gmSpans_.count(d)) span = gmSpans_.at(d);
    if (span) {
      o.ref.view = o.ref.bytesView();
      o.ref.offsets = {o.bytes};
      o.ref.sizes = {span};
    }
    return o.ref;
  }
};

}  // namespace ptov::cpp
