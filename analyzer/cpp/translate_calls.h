#pragma once
// Calls: an instruction of the PTO-ISA table by its CallShape, a user function inlined, anything
// else a gap; assignments that store to GM. Private to analyzer/cpp/translate.cpp.
#include "analyzer/cpp/translate_facts.h"

namespace ptov::cpp {

class CallLowering : public WrapperFacts {
 public:
  using WrapperFacts::WrapperFacts;

 protected:
  // Statements are the most derived layer's (translate.cpp): an inlined body is lowered there.
  virtual void translateStmt(const clang::Stmt* s, Stmt& seq) = 0;

  void emit(Stmt& seq, Op op) {
    // The values an op touches, for liveness (ub-range's overlap of tiles).
    for (const auto* refs : {&op.reads, &op.writes})
      for (const auto& r : *refs)
        if (!r.value.empty()) op.uses.push_back(r.value);
    if (!op.tileValue.empty()) op.uses.push_back(op.tileValue);
    if (op.kind == OpKind::SyncAll) ++barriersEmitted_;
    seq.children.push_back(Stmt::opStmt(std::move(op)));
  }
  int barriersEmitted_ = 0;  // all-core barriers emitted so far (GridStrideLoop::barriersBefore)

  Op makeOp(OpKind kind, const std::string& name, SourceLocation l) {
    Op op;
    op.kind = kind;
    op.name = name;
    op.dialect = Dialect::Cpp;
    op.loc = loc(l);
    if (!callSites_.empty()) op.callSite = callSites_.back();
    // An op inside pto-isa's headers (an Event's set_flag) is shown where the user's code called it.
    if (!userSites_.empty() && !inUserCode(ctx_.getSourceManager(), l)) op.loc = userSites_.back();
    return op;
  }

  // Every call in an expression, in evaluation order (arguments first).
  void translateCalls(const clang::Expr* e, Stmt& seq) {
    if (!e || tooDeep(e)) return;
    if (isa<LambdaExpr>(e)) return;  // a lambda's body runs where it is called; not modelled
    // `WithRope ? args[17] : args[7]` with a constant condition: only the arm that is evaluated.
    if (const auto* co = dyn_cast<ConditionalOperator>(e))
      if (auto c = evalConst(value(co->getCond()))) return translateCalls(*c ? co->getTrueExpr() : co->getFalseExpr(), seq);
    if (const auto* rec = dyn_cast<RecoveryExpr>(e)) return translateRecovery(rec, seq);
    if (const auto* ce = dyn_cast<CXXConstructExpr>(e)) {
      for (const clang::Expr* a : ce->arguments()) translateCalls(a, seq);
      return construct(ce == constructed_.second ? constructed_.first : nullptr, ce, seq);
    }
    if (const auto* call = dyn_cast<CallExpr>(e)) {
      const ops::OpRow* in = instrOf(call->getDirectCallee());
      // Arguments first, except the operands an instruction reads itself.
      using CS = ops::CallShape;
      if (!in || in->shape == CS::LaneId || in->shape == CS::LaneCount || in->shape == CS::CacheOffset ||
          in->shape == CS::Copy)
        for (const clang::Expr* a : call->arguments()) translateCalls(a, seq);
      if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call)) translateCalls(mc->getImplicitObjectArgument(), seq);
      return in ? translateInstr(call, *in, seq) : translateUserCall(call, seq);
    }
    if (const auto* bo = dyn_cast<BinaryOperator>(e)) {
      translateCalls(bo->getLHS(), seq);
      translateCalls(bo->getRHS(), seq);
      if (bo->isAssignmentOp()) assign(bo, seq);
      return;
    }
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e)) noteArgsRead(sub);
    if (const auto* ice = dyn_cast<ImplicitCastExpr>(e); ice && ice->getCastKind() == CK_LValueToRValue) {
      translateCalls(ice->getSubExpr(), seq);  // the address first
      return scalarRead(ice->getSubExpr(), seq);
    }
    if (const auto* uo = dyn_cast<UnaryOperator>(e); uo && uo->isIncrementDecrementOp())
      if (const ValueDecl* d = declOf(uo->getSubExpr()->IgnoreParenCasts())) {
        translateCalls(uo->getSubExpr(), seq);
        return changed(d, uo);
      }
    for (const clang::Stmt* c : e->children())
      if (const auto* ce = dyn_cast_or_null<clang::Expr>(c)) translateCalls(ce, seq);
  }

  // A call Clang could not resolve (an undeclared function, no viable overload). A tile
  // instruction is still modelled from the op table's defaults; anything else is a gap, so the
  // rules it could affect say `unknown` instead of passing.
  void translateRecovery(const RecoveryExpr* rec, Stmt& seq) {
    SourceLoc at = loc(rec->getBeginLoc());
    recovered_.insert({at.file, at.line});
    std::vector<const clang::Expr*> parts(rec->subExpressions().begin(), rec->subExpressions().end());
    std::string name;
    const ops::OpRow* in = nullptr;
    if (!parts.empty()) {
      const clang::Expr* callee = parts.front()->IgnoreParenImpCasts();
      if (const auto* ul = dyn_cast<UnresolvedLookupExpr>(callee)) {
        name = ul->getName().getAsString();
        in = instrOfLookup(*ul);
      } else if (const auto* dr = dyn_cast<DeclRefExpr>(callee)) {
        name = dr->getDecl()->getNameAsString();
        in = instrOf(dr->getDecl()->getAsFunction());
      } else if (const auto* me = dyn_cast<MemberExpr>(callee)) {
        name = me->getMemberDecl()->getNameAsString();
      }
    }
    // A tile instruction whose arguments did not resolve still has its table facts.
    if (in && in->shape == ops::CallShape::Tile && parts.size() > 1) {
      std::vector<const clang::Expr*> args(parts.begin() + 1, parts.end());
      return translateTileOp(rec, *in, name, args, seq);
    }
    gap(ModelGap::Kind::UndeclaredCall, rec->getBeginLoc(),
        "'" + (name.empty() ? text(rec) : name) + "'" + (in ? " (an argument's type is not known)" : ""));
    for (const clang::Expr* p : parts)
      if (p && !isa<UnresolvedLookupExpr>(p->IgnoreParenImpCasts())) translateCalls(p, seq);
  }

  // `d` changed in a way not followed here (a compound assignment, an assignment in a loop or a
  // switch arm, an increment, a field of it assigned): an unknown value, no known fields, and a
  // pointer keeps its buffer but not its offset.
  void changed(const ValueDecl* d, const clang::Stmt* by) {
    for (auto f = fields_.lower_bound({d, nullptr}); f != fields_.end() && f->first.first == d;) f = fields_.erase(f);
    values_[d] = opaque(by, d->getNameAsString() + "@" + std::to_string(loc(by->getBeginLoc()).line));
    if (auto o = origins_.find(d); o != origins_.end()) o->second.offset = o->second.bytes = nullptr;
    dims_.erase(d);
    gmSpans_.erase(d);
  }

  void assign(const BinaryOperator* bo, Stmt& seq) {
    const clang::Expr* lhs = bo->getLHS()->IgnoreParenCasts();
    if (const VarDecl* st = staticPlace(lhs)) {
      setStatic(st, bo->getOpcode() == BO_Assign ? value(bo->getRHS()) : opaque(bo, st->getNameAsString()), bo);
      return;
    }
    // this->f = v in an inlined member: the object's field.
    if (const auto* me = dyn_cast<MemberExpr>(lhs); me && isa<CXXThisExpr>(me->getBase()->IgnoreParenCasts()))
      if (const auto* field = dyn_cast<FieldDecl>(me->getMemberDecl()))
        if (const VarDecl* object = objectOf(me->getBase())) {
          bool inOrder = unmergedDepth_ == 0 && bo->getOpcode() == BO_Assign;
          fields_[{object, field}] = inOrder ? value(bo->getRHS()) : opaque(bo, field->getNameAsString());
          return;
        }
    if (const ValueDecl* d = declOf(lhs)) {
      auto flag = flagDepth_.find(d);
      bool inOrder = unmergedDepth_ == 0 || (flag != flagDepth_.end() && flag->second == unmergedDepth_);
      if (inOrder && bo->getOpcode() == BO_XorAssign && constant(bo->getRHS()) == std::optional<int64_t>(1) &&
          isBinary(values_[d])) {
        values_[d] = Expr::binary(Expr::Kind::Sub, Expr::constant(1), values_[d]);
      } else if (bo->getOpcode() == BO_Assign && inOrder) {
        values_[d] = value(bo->getRHS());
        Origin o = originOf(bo->getRHS());
        if (o.known()) origins_[d] = o;
      } else {
        changed(d, bo);
      }
      return;
    }
    // cfg.phase = v: the aggregate's fields are no longer what its initialiser said.
    if (const auto* me = dyn_cast<MemberExpr>(lhs)) {
      const clang::Expr* root = me->getBase()->IgnoreParenCasts();
      while (const auto* inner = dyn_cast<MemberExpr>(root)) root = inner->getBase()->IgnoreParenCasts();
      if (const ValueDecl* d = declOf(root)) changed(d, bo);
    }
    // ptr[i] = v / *ptr = v on a GM pointer: a scalar store.
    if (const clang::Expr* base = scalarBase(lhs)) scalarAccess(OpKind::ScalarStore, lhs, base, bo->getBeginLoc(), seq);
  }

  // `ptr[i]` or `*ptr` read through a GM pointer: the scalar unit reads it through the core's
  // data cache (what comm-wait-invalidate asks an invalidate before). A field read (`ptr->f`,
  // `ptr->arr[i]`) is not one here: it reads a descriptor (a kernel argument's Tensor, the
  // communication context) whose identity the model shares with the data it describes.
  void scalarRead(const clang::Expr* lvalue, Stmt& seq) {
    const clang::Expr* place = lvalue->IgnoreParens();
    const clang::Expr* base = scalarBase(place);
    if (!base || !base->getType()->isPointerType() || !place->getType()->isScalarType()) return;
    if (isa<MemberExpr>(base->IgnoreParenImpCasts())) return;  // `p->arr[i]`: a field too
    scalarAccess(OpKind::ScalarLoad, place, base, place->getBeginLoc(), seq);
  }

  // The pointer `p` of `p[i]` or `*p`; null for any other place.
  static const clang::Expr* scalarBase(const clang::Expr* place) {
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(place)) return sub->getBase();
    if (const auto* uo = dyn_cast<UnaryOperator>(place); uo && uo->getOpcode() == UO_Deref) return uo->getSubExpr();
    return nullptr;
  }

  // A ScalarStore or ScalarLoad on PIPE_S of `place` through `base`, when `base` points into GM.
  void scalarAccess(OpKind kind, const clang::Expr* place, const clang::Expr* base, SourceLocation l, Stmt& seq) {
    Origin o = originOf(base);
    if (!o.known() || o.ref.space != MemSpace::GM) return;
    const bool store = kind == OpKind::ScalarStore;
    Op op = makeOp(kind, store ? "scalar store" : "scalar load", l);
    op.pipes = {Pipe::S};
    (store ? op.writes : op.reads).push_back(scalarRef(o, place));
    emit(seq, std::move(op));
  }

  // The 64-byte line a single-line dcci of the address `o` drops (MemRef::byteStart).
  static MemRef lineOf(const Origin& o) {
    MemRef ref = o.ref;
    if (!o.bytes || !ref.valid()) return ref;
    ref.byteStart = o.bytes;
    ref.byteSize = kCacheLineBytes;
    if (auto c = evalConst(o.bytes))
      ref.byteRange = std::make_pair(cacheLineStart(*c), cacheLineStart(*c) + kCacheLineBytes);
    return ref;
  }

  // The buffer a scalar access of `place` (`p[i]` or `*p`, with `o` the origin of `p`) touches
  // and, when the bytes from the buffer's base are known, the bytes it covers.
  MemRef scalarRef(const Origin& o, const clang::Expr* place) {
    MemRef ref = o.ref;
    ExprPtr at = o.bytes;
    place = place->IgnoreParens();
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(place))
      at = addBytes(o.bytes, value(sub->getIdx()), sub->getBase()->getType());
    QualType t = place->getType();
    if (!at || ref.param < 0 || t->isIncompleteType() || t->isDependentType()) return ref;
    ref.view = ref.bytesView();
    ref.offsets = {at};
    ref.sizes = {Expr::constant(ctx_.getTypeSizeInChars(t).getQuantity())};
    ref.byteStart = at;
    ref.byteSize = ctx_.getTypeSizeInChars(t).getQuantity();
    if (auto c = evalConst(at)) ref.byteRange = std::make_pair(*c, *c + ref.byteSize);
    return ref;
  }

  Pipe pipeArg(const clang::Expr* e) {
    std::string n = enumeratorName(e);
    if (!n.empty()) return pipeFromName(n);
    // A number is a pipe_t value: the prelude's enum is generated in the model's order.
    if (auto c = constant(e))
      if (*c >= 0 && *c < kPipeCount) return static_cast<Pipe>(*c);
    return Pipe::Unknown;
  }

  // The template argument `i` of the called function (SYNCALL<Mode, Core>, SyncAll<false>, ...).
  std::string templateArgText(const CallExpr* call, unsigned i) {
    const FunctionDecl* fd = call->getDirectCallee();
    const TemplateArgumentList* args = fd ? fd->getTemplateSpecializationArgs() : nullptr;
    return args && i < args->size() ? templateArgName((*args)[i]) : "";
  }

  // The callee's template argument (written or defaulted) of the enum type named `enumName`, by
  // its enumerator's name; "" when it has none.
  std::string templateArgOfEnum(const CallExpr* call, const std::string& enumName) {
    const FunctionDecl* fd = call->getDirectCallee();
    const TemplateArgumentList* args = fd ? fd->getTemplateSpecializationArgs() : nullptr;
    if (!args) return "";
    for (const TemplateArgument& a : args->asArray()) {
      if (a.getKind() != TemplateArgument::Integral) continue;
      const auto* et = a.getIntegralType()->getAs<EnumType>();
      if (et && et->getDecl()->getNameAsString() == enumName) return templateArgName(a);
    }
    return "";
  }

  static const clang::Expr* argOf(const CallExpr* call, unsigned i) {
    return i < call->getNumArgs() ? call->getArg(i) : nullptr;
  }

  // An instruction of pto-isa's real headers that is handed events (`TADD(d, a, b, ev)`) waits on
  // them in its body before its `_IMPL` runs, and returns the record the caller assigns to the
  // next event: its body is inlined, and its `_IMPL` call is the instruction the table describes.
  struct PendingInstr {
    const CallExpr* call;
    const ops::OpRow* row;
    std::string implName;
    bool emitted = false;
  };
  std::optional<PendingInstr> pendingInstr_;

  bool takesEvents(const CallExpr* call) {
    for (const clang::Expr* a : call->arguments()) {
      const auto* rd = a->getType()->getAsCXXRecordDecl();
      if (!rd || !rd->hasDefinition()) continue;
      for (const auto& base : rd->bases())
        if (const auto* b = base.getType()->getAsCXXRecordDecl(); b && b->getQualifiedNameAsString() == "pto::EventBase")
          return true;
    }
    return false;
  }

  void emitPendingInstr(Stmt& seq) {
    translateInstr(pendingInstr_->call, *pendingInstr_->row, seq, /*throughBody=*/false);
    pendingInstr_->emitted = true;
  }

  // A call of a table instruction: one handler per call shape (analyzer/model/op_registry.h).
  void translateInstr(const CallExpr* call, const ops::OpRow& in, Stmt& seq, bool throughBody = true) {
    using CS = ops::CallShape;
    const FunctionDecl* callee = call->getDirectCallee();
    if (throughBody && in.shape == CS::Tile && !pendingInstr_ && isLibraryFunction(callee) && takesEvents(call) &&
        !stack_.count(callee->getDefinition())) {
      pendingInstr_ = PendingInstr{call, &in, callee->getNameAsString() + "_IMPL"};
      inlineCall(call, callee, seq);
      bool emitted = pendingInstr_->emitted;
      pendingInstr_.reset();
      if (!emitted) translateInstr(call, in, seq, false);
      return;
    }
    SourceLocation l = call->getBeginLoc();
    const std::string n = call->getDirectCallee()->getNameAsString();
    auto arg = [&](unsigned i) { return argOf(call, i); };
    switch (in.shape) {
      case CS::LaneId: return laneRead(call, n);
      case CS::CacheOffset:
        facts_.cacheOffsetReads.push_back(CacheOffsetRead{loc(l), inlineDepth_ == 0 && depth_ == 0});
        return;
      case CS::HardEvent: return translateHardEvent(call, in.kind, seq);
      case CS::Event: {
        Op op = makeOp(in.kind, n, l);
        op.event.src = pipeArg(arg(0));
        op.event.dst = pipeArg(arg(1));
        return emitEvent(std::move(op), arg(2), seq);
      }
      case CS::Barrier:
      case CS::BarrierTemplate: {
        Op op = makeOp(OpKind::PipeBarrier, n, l);
        op.barrierPipe = in.shape == CS::Barrier ? pipeArg(arg(0)) : pipeFromName(templateArgText(call, 0));
        ops::PipeOperands named;
        named.named = op.barrierPipe;
        op.pipes = ops::resolvePipes(in, named);
        return emit(seq, std::move(op));
      }
      case CS::Dsb: {
        Op op = makeOp(OpKind::Fence, n, l);
        op.fenceScope = FenceScope::Dsb;
        return emit(seq, std::move(op));
      }
      case CS::CacheLine: {
        Op op = makeOp(OpKind::CacheInvalidate, n, l);
        op.invalidateAll = enumeratorName(arg(1)) == "ENTIRE_DATA_CACHE";
        op.writeback = enumeratorName(arg(2)) == "CACHELINE_OUT";
        if (!op.invalidateAll) op.target = lineOf(originOf(arg(0)));
        if (auto walk = lineWalks_.find(declOf(arg(0)->IgnoreParenCasts())); walk != lineWalks_.end()) {
          op.target.walkFrom = walk->second.from;
          op.target.walkTo = walk->second.to;
          op.target.walkLoop = walk->second.loop;
        }
        op.pipes = in.pipes;
        return emit(seq, std::move(op));
      }
      case CS::TileAssign: return translateAssign(call, seq);
      case CS::Signal: {
        Op op = makeOp(in.kind, "pto::comm::" + n, l);
        op.pipes = in.pipes;
        op.target = originOf(arg(0)).ref;
        return emit(seq, std::move(op));
      }
      case CS::Staged: return translateStaged(call, in, seq);
      case CS::Collective: {
        Op op = makeOp(OpKind::Collective, "pto::comm::" + n, l);
        op.pipes = in.pipes;
        for (const clang::Expr* a : call->arguments())
          if (!isTileExpr(a))
            if (Origin o = originOf(a); o.known() && o.ref.space == MemSpace::GM) op.writes.push_back(o.ref);
        return emit(seq, std::move(op));
      }
      case CS::SyncAllPto:
      case CS::SyncAllIndexed:
      case CS::SyncAllAscendC: return translateSyncAll(call, in, seq);
      case CS::CrossCoreSet: {
        Op op = makeOp(OpKind::CrossCoreSet, n, l);
        op.event.src = pipeArg(arg(0));
        // The flag is the message's second field: getFFTSMsg(mode, flag) / _getFFTSMsg(mode, flag).
        if (const auto* msg = dyn_cast_or_null<CallExpr>(arg(1) ? arg(1)->IgnoreParenCasts() : nullptr))
          if (msg->getDirectCallee() && !isUserFunction(msg->getDirectCallee()) && msg->getNumArgs() >= 2 &&
              (calleeName(msg) == "getFFTSMsg" || calleeName(msg) == "_getFFTSMsg"))
            op.event.id = evalConst(value(msg->getArg(1)));
        return emit(seq, std::move(op));
      }
      case CS::CrossCoreWait: {
        Op op = makeOp(OpKind::CrossCoreWait, n, l);
        op.event.id = evalConst(value(arg(0)));
        return emit(seq, std::move(op));
      }
      case CS::IntraBlock: {
        Op op = makeOp(in.kind, n, l);
        op.event.src = pipeArg(arg(0));
        op.event.id = evalConst(value(arg(1)));
        return emit(seq, std::move(op));
      }
      case CS::SyncObject: return translateSyncObject(call, in, seq);
      case CS::CvSlot: {
        // One core kind's half of the handshake: the cube sets the flag, the vector waits on it.
        bool cube = k_.view == CoreView::Aic;
        Op op = makeOp(cube ? OpKind::CrossCoreSet : OpKind::CrossCoreWait, "pto::" + n, l);
        if (cube) op.event.src = in.pipes.front();
        op.event.id = in.flag;
        return emit(seq, std::move(op));
      }
      case CS::SetFfts: return emit(seq, makeOp(OpKind::SetFfts, n, l));
      case CS::Copy: return translateCopy(call, in, seq);
      case CS::AsyncWait: {
        Op op = makeOp(in.kind, "pto::comm::AsyncEvent::" + n, l);
        op.pipes = in.pipes;
        return emit(seq, std::move(op));
      }
      case CS::Tile:
        if (call->getNumArgs() == 0) return;
        return translateTileOp(call, in, n, std::vector<const clang::Expr*>(call->arg_begin(), call->arg_end()), seq);
      case CS::LaneCount:
      case CS::None: return;
    }
  }

  // TMATMUL<AccPhase::Final / Partial> and TSTORE / TMOV<STPhase::...>: the L0C unit flag, by which
  // the hardware orders the cube's writes of an accumulator and the fixpipe's reads of it.
  bool usesUnitFlag(const clang::Expr* e) {
    const auto* call = dyn_cast<CallExpr>(e);
    const FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
    const TemplateArgumentList* args = fd ? fd->getTemplateSpecializationArgs() : nullptr;
    for (unsigned i = 0; args && i < args->size(); ++i) {
      const TemplateArgument& a = (*args)[i];
      if (a.getKind() != TemplateArgument::Integral) continue;
      const auto* et = a.getIntegralType()->getAs<EnumType>();
      std::string phase = templateArgName(a);
      if (et && (et->getDecl()->getName() == "AccPhase" || et->getDecl()->getName() == "STPhase") &&
          (phase == "Final" || phase == "Partial"))
        return true;
    }
    return false;
  }

  // sync.record() / wait() / allocate() / free() on a TSync_Custom{flag_id}: a cross-core set or
  // wait of the object's flag (plus the table's offset); a record's pipe follows the producer
  // the object's type names.
  void translateSyncObject(const CallExpr* call, const ops::OpRow& in, Stmt& seq) {
    const auto* mc = dyn_cast<CXXMemberCallExpr>(call);
    const CXXMethodDecl* method = mc ? mc->getMethodDecl() : nullptr;
    Op op = makeOp(in.kind, "pto::TSync_Custom::" + call->getDirectCallee()->getNameAsString(), call->getBeginLoc());
    std::string producer;
    if (const auto* spec = method ? dyn_cast<ClassTemplateSpecializationDecl>(method->getParent()) : nullptr)
      if (spec->getTemplateArgs().size() > 0) producer = templateArgName(spec->getTemplateArgs()[0]);
    ops::PipeOperands byProducer;
    byProducer.producer = producer;
    if (in.kind == OpKind::CrossCoreSet) op.event.src = ops::resolvePipes(in, byProducer).front();
    if (const FieldDecl* field = mc ? fieldNamed(method->getParent(), "flag_id") : nullptr)
      if (auto id = constantField(mc->getImplicitObjectArgument(), field)) op.event.id = *id + in.flag;
    if (!op.event.id)
      gap(ModelGap::Kind::UnresolvedAddress, call->getBeginLoc(),
          "the flag of '" + text(mc ? mc->getImplicitObjectArgument() : call) + "' (not a constant)");
    emit(seq, std::move(op));
  }

  // A CCE data-movement intrinsic (copy_gm_to_ubuf(dst, src, ...)): an op on the row's pipe that
  // writes its destination and reads its source. A pointer the translator cannot trace to a
  // buffer of the intrinsic's space is a gap for that operand alone: the op and its pipe stay.
  void translateCopy(const CallExpr* call, const ops::OpRow& in, Stmt& seq) {
    const std::string n = call->getDirectCallee()->getNameAsString();
    Op op = makeOp(in.kind, n, call->getBeginLoc());
    op.pipes = in.pipes;
    auto operand = [&](int i, MemSpace space, bool write) {
      const clang::Expr* a = i >= 0 ? argOf(call, static_cast<unsigned>(i)) : nullptr;
      if (!a) return;
      Origin o = originOf(a);
      const char* role = write ? "destination" : "source";
      if (!o.known())
        return gap(ModelGap::Kind::UnresolvedAddress, a->getBeginLoc(),
                   std::string("the ") + role + " of '" + n + "' ('" + text(a) + "')");
      if (o.ref.space != space)
        return gap(ModelGap::Kind::UnresolvedAddress, a->getBeginLoc(),
                   std::string("the ") + role + " of '" + n + "' ('" + text(a) + "' is " + memSpaceName(o.ref.space) +
                       ", the intrinsic's " + role + " is " + memSpaceName(space) + ")");
      (write ? op.writes : op.reads).push_back(o.ref);
    };
    operand(in.copy.dst, in.copy.dstSpace, true);
    operand(in.copy.src, in.copy.srcSpace, false);
    emit(seq, std::move(op));
  }

  // TPUT / TGET(dst, src, staging tile): its load phase, the set/wait pair it issues inside
  // itself, then the rest, each access on its own phase's pipe.
  void translateStaged(const CallExpr* call, const ops::OpRow& in, Stmt& seq) {
    Op op = makeOp(in.kind, "pto::comm::" + call->getDirectCallee()->getNameAsString(), call->getBeginLoc());
    op.pipes = in.pipes;
    std::vector<MemRef> refs;
    for (unsigned i = 0; i < call->getNumArgs() && i < 4; ++i) {
      const clang::Expr* a = call->getArg(i);
      refs.push_back(isTileExpr(a) ? tileRef(a) : originOf(a).ref);
    }
    std::vector<const MemRef*> operands;
    for (const MemRef& r : refs) operands.push_back(r.valid() ? &r : nullptr);
    for (Op& phase : ops::stagedOps(in, operands, std::move(op))) emit(seq, std::move(phase));
  }

  // A call of anything but an instruction: a user function's body is inlined; a library call
  // with memory effects the model lacks, or a user function with no body, is a gap.
  void translateUserCall(const CallExpr* call, Stmt& seq) {
    const FunctionDecl* fd = call->getDirectCallee();
    if (!fd) {  // through a pointer or a callable object: what it runs is not known here
      if (!call->getType()->isIntegerType())
        gap(ModelGap::Kind::OpaqueCall, call->getBeginLoc(), "'" + text(call) + "' (an indirect call)");
      return;
    }
    if (isUserFunction(fd) || isLibraryFunction(fd)) {
      if (pendingInstr_ && fd->getNameAsString() == pendingInstr_->implName) return emitPendingInstr(seq);
      if (statefulValue(call)) return;  // a value helper that advances a static: run once, for its value
      if (fd->hasBody() && !stack_.count(fd->getDefinition())) return inlineCall(call, fd, seq);
      if (!fd->hasBody() && !fd->getReturnType()->isIntegerType())
        gap(ModelGap::Kind::OpaqueCall, call->getBeginLoc(),
            "'" + fd->getNameAsString() + "' (its body is not available, so what it does is not modelled)");
      return;
    }
    // pto-isa's function with no body here (its instantiation did not compile for this arch, or
    // it is defined outside the headers): whatever it returns, what it does is not modelled.
    if (isLibraryDeclaration(fd)) {
      if (pendingInstr_ && fd->getNameAsString() == pendingInstr_->implName) return emitPendingInstr(seq);
      return gap(ModelGap::Kind::OpaqueCall, call->getBeginLoc(),
                 "'" + fd->getQualifiedNameAsString() +
                     "' (no body of it compiled from pto-isa's headers here, so what it does is not modelled)");
    }
    // The prelude marks what it knows to touch no memory (mask registers) and the AscendC task
    // type a kernel declares (KERNEL_TASK_TYPE_DEFAULT).
    if (const auto* note = fd->getAttr<AnnotateAttr>()) {
      if (note->getAnnotation() == "ptoverify.task_type" && call->getNumArgs() == 1)
        facts_.taskType = enumeratorName(call->getArg(0));
      if (note->getAnnotation() == "ptoverify.task_type" || note->getAnnotation() == "ptoverify.no_memory") return;
    }
    // A CCE intrinsic the op table does not list (a raw copy, a vector or cube instruction).
    if (const auto* note = fd->getAttr<AnnotateAttr>(); note && note->getAnnotation() == "ptoverify.intrinsic") {
      if (!fd->getReturnType()->isIntegerType())
        gap(ModelGap::Kind::UnknownOp, call->getBeginLoc(),
            "CCE intrinsic '" + fd->getNameAsString() + "' (not in the op table: its pipe and memory accesses are not modelled)");
      return;
    }
    // AscendC data movement and vector calls (DataCopy, Add, Mmad, ...) are declared by the
    // prelude without their memory and pipe effects: counted, so the rules say what they could
    // not see.
    const std::string qualified = fd->getQualifiedNameAsString();
    if (qualified.rfind("AscendC::", 0) == 0 && !fd->getReturnType()->isIntegerType())
      gap(ModelGap::Kind::UnknownOp, call->getBeginLoc(),
          "'AscendC::" + fd->getNameAsString() + "' (its memory accesses and pipe are not modelled)");
    // A pto-isa function the instruction table does not list (TPUSH / TPOP through a TPipe FIFO):
    // it may move data and synchronise, none of which the model has.
    else if (qualified.rfind("pto::", 0) == 0 && !isa<CXXMethodDecl>(fd) && fd->getReturnType()->isVoidType())
      gap(ModelGap::Kind::OpaqueOp, call->getBeginLoc(),
          "'" + qualified +
              "' (not in the instruction table: its memory accesses, pipes and synchronisation are "
              "not modelled)");
  }

  // A PTO-ISA tile instruction: kind, pipe and operand roles from the shared table
  // (analyzer/model/op_registry). One the table does not list gets its conservative default and is
  // counted as a gap.
  void translateTileOp(const clang::Expr* call, const ops::OpRow& in, const std::string& n,
                       const std::vector<const clang::Expr*>& args, Stmt& seq) {
    // TMOV(pipe, tile) / TMOV(tile, pipe) through a cube <-> vector FIFO is a TPUSH / TPOP: its
    // data movement and cross-core flags are not the plain move the table describes.
    for (const clang::Expr* a : args)
      if (a && classNameOf(a->getType()) == "TPipe")
        return gap(ModelGap::Kind::OpaqueOp, call->getBeginLoc(),
                   "'" + n +
                       "' through a TPipe FIFO (a TPUSH / TPOP: its data movement and cross-core flags are "
                       "not modelled)");
    Op op = makeOp(in.kind, n, call->getBeginLoc());
    bool transfer = in.kind == OpKind::Load || in.kind == OpKind::Prefetch || in.kind == OpKind::Store;
    bool hasTmp = false;
    for (size_t i = 0; i < args.size(); ++i) {
      bool tmp = static_cast<int>(i) == in.tmp && isTileExpr(args[i]);
      bool written = static_cast<int>(i) == in.written || tmp;
      hasTmp |= tmp;
      if (isTileExpr(args[i])) {
        MemRef tile = tileRef(args[i]);
        tile.scratch = tmp;
        (written ? op.writes : op.reads).push_back(std::move(tile));
      }
      else if (transfer && i < 2) (written ? op.writes : op.reads).push_back(gmRef(args[i], n + " address"));
    }
    if (in.window && args.size() >= 4) op.sourceWindowByte = windowByte(args);
    op.unitFlag = usesUnitFlag(call);
    ops::PipeOperands operands;
    operands.src = op.reads.empty() ? MemSpace::None : op.reads.front().space;
    operands.dst = op.writes.empty() ? MemSpace::None : op.writes.front().space;
    operands.hasTmp = hasTmp;
    op.pipes = ops::resolvePipes(in, operands);
    if (in.kind == OpKind::Load) {
      std::string hint = dyn_cast<CallExpr>(call) ? templateArgText(cast<CallExpr>(call), 0) : "";
      if (hint == "NotAllocKeep" || hint == "NotAllocClear") op.cachePolicy = CachePolicy::L2Bypass;
    }
    emit(seq, std::move(op));
  }

  // TEXTRACT(dst, src, row, col): where the window starts in src, when it is contiguous there.
  std::optional<int64_t> windowByte(const std::vector<const clang::Expr*>& args) {
    auto src = tileInfoOf(args[1]->getType()), dst = tileInfoOf(args[0]->getType());
    auto row = evalConst(value(args[2])), col = evalConst(value(args[3]));
    if (!src || !dst || !row || !col || src->elemBytes <= 0) return std::nullopt;
    bool contiguous = src->rows == 1 || (*col == 0 && dst->cols == src->cols);
    if (!contiguous) return std::nullopt;
    return (*row * src->cols + *col) * src->elemBytes;
  }

  // AscendC::SetFlag<HardEvent::MTE2_V>(id): the event's pipes are named by the enumerator.
  void translateHardEvent(const CallExpr* call, OpKind kind, Stmt& seq) {
    Op op = makeOp(kind, kind == OpKind::SetFlag ? "AscendC::SetFlag" : "AscendC::WaitFlag", call->getBeginLoc());
    std::string pair = templateArgText(call, 0);
    auto cut = pair.find('_');
    if (cut != std::string::npos) {
      op.event.src = pipeFromName(pair.substr(0, cut));
      op.event.dst = pipeFromName(pair.substr(cut + 1));
    }
    if (op.event.src == Pipe::Unknown || op.event.dst == Pipe::Unknown) {
      gap(ModelGap::Kind::UnknownOp, call->getBeginLoc(), "'" + op.name + "<" + pair + ">'");
      return;
    }
    emitEvent(std::move(op), argOf(call, 0), seq);
  }

  // A set_flag / wait_flag whose pipes are known: it runs on the set's source or the wait's
  // destination pipe; the id is folded when it can be.
  void emitEvent(Op op, const clang::Expr* id, Stmt& seq) {
    op.pipes = ops::eventPipes(op.kind, op.event.src, op.event.dst);
    if (id) {
      op.event.idExpr = value(id);
      op.event.id = evalConst(op.event.idExpr);
    }
    emit(seq, std::move(op));
  }

  // The address a placement names: its second argument, or its first template argument
  // (`TASSIGN<0x2000>(tile)`).
  std::optional<ExprPtr> placedAddress(const CallExpr* call) {
    if (call->getNumArgs() >= 2) return value(call->getArg(1));
    const FunctionDecl* fd = call->getDirectCallee();
    const TemplateArgumentList* targs = fd ? fd->getTemplateSpecializationArgs() : nullptr;
    if (call->getNumArgs() != 1 || !targs || targs->size() == 0 || targs->get(0).getKind() != TemplateArgument::Integral)
      return std::nullopt;
    return Expr::constant(targs->get(0).getAsIntegral().getExtValue());
  }

  void translateAssign(const CallExpr* call, Stmt& seq) {
    std::optional<ExprPtr> placed = placedAddress(call);
    if (!placed) return;
    const clang::Expr* target = call->getArg(0);
    const ValueDecl* d = declOf(target);
    if (d && isGlobalTensorType(d->getType()) && call->getNumArgs() >= 2) {  // rebinding a GM tensor's address
      Origin o = originOf(call->getArg(1));
      if (o.known()) origins_[d] = o;
      return;
    }
    Op op = makeOp(OpKind::TileAssign, "TASSIGN", call->getBeginLoc());
    auto ti = d ? tiles_.find(d) : tiles_.end();
    if (ti != tiles_.end()) {
      op.tileSpace = ti->second.space;
      op.tileBytes = ti->second.bytes;
    } else if (auto info = tileInfoOf(target->getType())) {
      op.tileSpace = info->space;
      op.tileBytes = info->bytes;
    }
    op.tileValue = tileRef(target).value;
    ExprPtr addr = *placed;
    op.tileAddr = evalConst(addr);
    if (!op.tileAddr) op.tileAddrChoices = possibleConstants(addr);
    if (ti != tiles_.end()) ti->second.addr = op.tileAddr;
    if (op.tileAddr && op.tileSpace == MemSpace::UB)
      placements_.push_back(Placement{bodies_.back()->getNameAsString(), d, *op.tileAddr + op.tileBytes, op.loc});
    emit(seq, std::move(op));
  }

  void translateSyncAll(const CallExpr* call, const ops::OpRow& in, Stmt& seq) {
    using CS = ops::CallShape;
    const CS shape = in.shape;
    Op op = makeOp(OpKind::SyncAll, call->getDirectCallee()->getQualifiedNameAsString(), call->getBeginLoc());
    op.pipes = ops::resolvePipes(in, {});
    auto arg = [&](unsigned i) { return argOf(call, i); };
    Origin ws;
    if (shape == CS::SyncAllAscendC) {
      op.syncMode = SyncMode::Hard;
      op.coreType = templateArgText(call, 0) == "false" ? CoreType::Mix : CoreType::Vector;
    } else if (shape == CS::SyncAllPto) {
      // SYNCALL<CoreType>() is the hardware barrier; SYNCALL<Mode, CoreType>(workspace) names its mode.
      std::string mode = templateArgOfEnum(call, "SyncAllMode");
      op.syncMode = mode.empty() || mode == "Hard" ? SyncMode::Hard : SyncMode::Soft;
      std::string core = templateArgOfEnum(call, "SyncCoreType");
      op.coreType = core == "AICOnly" ? CoreType::Cube : core == "Mix" ? CoreType::Mix : CoreType::Vector;
      if (arg(0)) ws = originOf(arg(0));
      if (arg(1)) op.participants = value(arg(1));
    } else {  // SYNCALL_SOFT_AIV_BARRIER(gm, ub, participants, index)
      op.syncMode = SyncMode::Soft;
      op.coreType = CoreType::Vector;
      ws = originOf(arg(0));
      if (arg(2)) op.participants = value(arg(2));
      if (arg(3)) op.participantIndex = value(arg(3));
      if (const clang::Expr* ub = arg(1)) ubScratchOf(ub, op.participants);
    }
    if (ws.known()) {
      op.reads.push_back(ws.ref);
      op.writes.push_back(ws.ref);
      op.workspaceOffset = ws.offset ? ws.offset : Expr::constant(0);
      std::string off = toString(op.workspaceOffset);
      op.uses.push_back(ws.ref.value + (off == "0" ? "" : " + " + off));
    }
    emit(seq, std::move(op));
  }

  void inlineCall(const CallExpr* call, const FunctionDecl* fd, Stmt& seq) {
    const FunctionDecl* def = fd->getDefinition() ? fd->getDefinition() : fd;
    if (inlineDepth_ >= 16) {
      note(call->getBeginLoc(), "call of '" + fd->getNameAsString() + "' nested too deep to inline");
      return;
    }
    if (facts_.wrapper && inlineDepth_ == 0 && def->getReturnType()->isVoidType()) recordForwarded(call, def);
    callSites_.push_back(loc(call->getBeginLoc()));
    bool fromUser = inUserCode(ctx_.getSourceManager(), call->getBeginLoc());
    userSites_.push_back(fromUser || userSites_.empty() ? callSites_.back() : userSites_.back());
    reached_.insert(patternOf(def));
    // `this` in the callee: the object a member function is called on.
    const VarDecl* object = nullptr;
    if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call)) object = objectOf(mc->getImplicitObjectArgument());
    else if (isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(def) && call->getNumArgs() > 0) object = objectOf(call->getArg(0));
    thisObjects_.push_back(object);
    inCallee(call, def, [&] {
      bodies_.push_back(def);
      inlineBaseDepth_.push_back(depth_);
      ++inlineDepth_;
      translateStmt(def->getBody(), seq);
      leftFunction_ = false;  // the caller goes on after the call
      --inlineDepth_;
      inlineBaseDepth_.pop_back();
      bodies_.pop_back();
    });
    thisObjects_.pop_back();
    callSites_.pop_back();
    userSites_.pop_back();
  }

  // An object built by a constructor with a body (pto-isa's `Event<Op, Op> e = TLOAD(...)`):
  // its bases' constructors, its member initialisers (an Event's token from its counter), then
  // the body (the Event's set_flag), with `this` the object (null: a temporary, not tracked).
  std::pair<const VarDecl*, const CXXConstructExpr*> constructed_{nullptr, nullptr};
  void construct(const VarDecl* object, const CXXConstructExpr* ce, Stmt& seq) {
    const CXXConstructorDecl* ctor = ce->getConstructor();
    const auto* def = ctor ? dyn_cast_or_null<CXXConstructorDecl>(ctor->getDefinition()) : nullptr;
    if (!def || !(isUserFunction(def) || isLibraryFunction(def)) || stack_.count(def) || inlineDepth_ >= 16) return;
    if (def->isTrivial() || (def->isCopyOrMoveConstructor() && def->isDefaulted())) return;
    callSites_.push_back(loc(ce->getBeginLoc()));
    bool fromUser = inUserCode(ctx_.getSourceManager(), ce->getBeginLoc());
    userSites_.push_back(fromUser || userSites_.empty() ? callSites_.back() : userSites_.back());
    thisObjects_.push_back(object);
    inCallee(ce, def, [&] {
      ++inlineDepth_;
      for (const CXXCtorInitializer* init : def->inits()) {
        const clang::Expr* e = init->getInit();
        if (!e) continue;
        if (init->isBaseInitializer() || init->isDelegatingInitializer()) {
          if (const auto* base = dyn_cast<CXXConstructExpr>(e->IgnoreImplicit())) {
            for (const clang::Expr* a : base->arguments()) translateCalls(a, seq);
            construct(object, base, seq);
          }
          continue;
        }
        const FieldDecl* field = init->getAnyMember();
        if (field && field->getType()->isIntegralOrEnumerationType()) {
          ExprPtr v = value(e);
          if (object) fields_[{object, field}] = v;
        } else {
          translateCalls(e, seq);
        }
      }
      bodies_.push_back(def);
      inlineBaseDepth_.push_back(depth_);
      translateStmt(def->getBody(), seq);
      leftFunction_ = false;
      inlineBaseDepth_.pop_back();
      bodies_.pop_back();
      --inlineDepth_;
    });
    thisObjects_.pop_back();
    callSites_.pop_back();
    userSites_.pop_back();
  }
};

}  // namespace ptov::cpp
