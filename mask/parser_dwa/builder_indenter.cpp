#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "lib/core/error.h"
#include "mask/parser_dwa/builder_preparation.h"
#include "mask/parser_dwa/builder_worker.h"

namespace glrmask::mask::construction {

// Grammars with an indenter: what the construction needs besides the plain tables (docs/wfa.md,
// "Indenter"). Refuses what the construction does not cover: skippable terminals (their "no stack
// shifts it" rule and the indenter's branches are not combined), a Terminal DWA built without
// indent labels, and rules whose brackets do not pair up (the parser then decides every closing
// bracket: a stack that shifts one holds its opening bracket, so a closer never meets depth 0).
void prepare_indenter(ParserDwaShared& shared) {
  const glr::CompiledGrammar& grammar = shared.grammar;
  const glr::IndenterSpec& spec = *grammar.indenter();
  shared.indenter = &spec;
  if (!grammar.skippable_terminals().empty())
    throw Error(fmt::format("wfa: a grammar with a post-lexer (GrammarOptions::postlex {}) and "
                            "skippable terminals is not supported",
                            glr::post_lexer_name(grammar.options().postlex)),
                ErrorCode::kUnsupported);
  if (!shared.dwa.indent_labeling() ||
      shared.dwa.indent_labeling()->newline_terminal != spec.newline ||
      shared.dwa.indent_labeling()->tab_len != spec.tab_len)
    throw Error(
        "wfa: internal error: the Terminal DWA was built without the indent labels of the "
        "grammar's indenter",
        ErrorCode::kInternal);
  const glr::LrGrammar& lr = grammar.lalr().grammar();
  for (glr::RuleId rule = 0; rule < lr.num_rules(); ++rule) {
    int depth = 0;
    for (const SymbolId symbol : lr.rhs(rule)) {
      if (spec.is_open(symbol)) ++depth;
      if (spec.is_close(symbol) && --depth < 0) break;
    }
    if (depth != 0)
      throw Error(
          fmt::format(
              "wfa: rule {} ({}) does not pair its brackets; the indenter's bracket depth is then "
              "not what the parser's stacks hold, which the construction relies on",
              lr.rule_text(rule), lr.origin(rule)),
          ErrorCode::kUnsupported);
    // The walk reads the indentation levels off the stack's _INDENT frames (docs/indenter.md,
    // "The invariant"): a rule holds _INDENT and _DEDENT as a pair or not at all, with _DEDENT
    // last, so shifting a _DEDENT is followed by the reduction that pops its frame.
    const auto rhs = lr.rhs(rule);
    const auto indents = std::count(rhs.begin(), rhs.end(), spec.indent);
    const auto dedents = std::count(rhs.begin(), rhs.end(), spec.dedent);
    if (indents != dedents || indents > 1 || (dedents == 1 && rhs.back() != spec.dedent))
      throw Error(
          fmt::format(
              "wfa: rule {} ({}) does not hold _INDENT ... _DEDENT as a pair ending the rule; the "
              "stack's _INDENT frames are then not the indenter's levels, which the construction "
              "relies on",
              lr.rule_text(rule), lr.origin(rule)),
          ErrorCode::kUnsupported);
  }
  const glr::Lr0Automaton& lr0 = grammar.lalr().lr0();
  const std::uint32_t states = shared.table.num_states();
  shared.indent_frame.assign(states, 0);
  shared.dedent_state.assign(states, 0);
  for (StateId x = 0; x < states; ++x) {
    shared.indent_frame[x] = lr0.accessing_symbol(x) == spec.indent;
    shared.dedent_state[x] = lr0.accessing_symbol(x) == spec.dedent;
  }
  shared.newline_lookahead = intern_lookahead(shared, {spec.newline});
  shared.indent_lookahead = intern_lookahead(shared, {spec.indent});
  shared.dedent_lookahead = intern_lookahead(shared, {spec.dedent});
  shared.end_lookahead = intern_lookahead(shared, {shared.end_of_input});
  const lexer::LexerDfa& dfa = shared.dwa.dfa();
  std::vector<SymbolId> ordinary;
  shared.label_bracket.assign(dfa.terminals().size(), 0);
  for (SymbolId t = 0; t < dfa.terminals().size(); ++t) {
    shared.label_bracket[t] = spec.is_open(t) ? 1 : spec.is_close(t) ? -1 : 0;
    if (t == spec.newline || spec.is_produced(t) || spec.is_close(t) || dfa.terminals()[t].ignored)
      continue;
    ordinary.push_back(t);
  }
  ordinary.push_back(shared.end_of_input);
  shared.ordinary_or_end = intern_lookahead(shared, std::move(ordinary));

  // Labels whose feed changes the context are not plain lookaheads.
  for (lexer::LabelId label = 0; label < dfa.num_labels(); ++label) {
    for (const std::uint32_t terminal : dfa.label_terminals(label))
      if (terminal == spec.newline || shared.label_bracket[terminal] != 0)
        shared.plain_lookaheads[label] = kNoLookahead;
  }

  const lexer::TerminalDwa& dwa = shared.dwa;
  shared.indent_checks.resize(dwa.num_nodes());
  for (lexer::DwaNodeId node = 0; node < dwa.num_nodes(); ++node) {
    ParserDwaShared::IndentChecks& checks = shared.indent_checks[node];
    for (const lexer::DwaWeight& weight : dwa.weights(node)) {
      std::vector<SymbolId> plain;
      for (const std::uint32_t t : dwa.next_terminals(weight.end)) {
        if (t == spec.newline) {
          checks.newline = shared.pool.unite(checks.newline, weight.tokens);
        } else {
          plain.push_back(t);
        }
      }
      if (dwa.can_finish(weight.end) || shared.ends_through_ignored[weight.end] != 0) {
        checks.end = shared.pool.unite(checks.end, weight.tokens);
        plain.push_back(shared.end_of_input);
      }
      if (plain.empty()) continue;
      const LookaheadId lookahead = intern_lookahead(shared, std::move(plain));
      const auto same = std::find_if(checks.plain.begin(), checks.plain.end(),
                                     [&](const auto& entry) { return entry.first == lookahead; });
      if (same != checks.plain.end()) {
        same->second = shared.pool.unite(same->second, weight.tokens);
      } else {
        checks.plain.emplace_back(lookahead, weight.tokens);
      }
    }
  }
  shared.closes_below.assign(dwa.num_nodes(), 0);
  shared.newline_below.assign(dwa.num_nodes(), 0);
  for_each_node_children_first(dwa, [&](lexer::DwaNodeId node) {
    int closes = 0;
    bool newline = false;
    for (const lexer::DwaEdge& edge : dwa.edges(node)) {
      bool closer = false;
      for (const std::uint32_t t : dwa.label_terminals(edge.label)) {
        closer = closer || shared.label_bracket[t] < 0;
        newline = newline || t == spec.newline;
      }
      closes = std::max(closes, (closer ? 1 : 0) + shared.closes_below[edge.child]);
      newline = newline || shared.newline_below[edge.child] != 0;
    }
    shared.closes_below[node] = static_cast<std::uint8_t>(std::min(closes, 100));
    shared.newline_below[node] = newline ? 1 : 0;
  });
}

ParserDwaWorker::ConditionalWork ParserDwaWorker::conditional_work(WorkId work) const {
  ConditionalWork result;
  if ((work & kConditionalWork) == 0) {
    result.work = work;
    return result;
  }
  const std::vector<std::uint32_t>& flat = shared_.conditional_works[work & ~kConditionalWork];
  result.work = flat[0];
  for (std::size_t i = 1; i + 2 < flat.size(); i += 3)
    result.parts.push_back({flat[i], TokenSetId{flat[i + 1]}, flat[i + 2]});
  return result;
}

void ParserDwaWorker::merge_conditional(Collector& into, ConditionSetId set,
                                        const Outcome& outcome) {
  if (set == 0) {
    merge(into, outcome);
    return;
  }
  const ConditionalWork work = conditional_work(outcome.work);
  if (!outcome.accepted.is_empty() || work.work != 0)
    into.conditionals.push_back({set, outcome.accepted, work.work});
  for (const ConditionalPart& part : work.parts)
    into.conditionals.push_back({conjoin(set, part.set), part.accepted, part.work});
}

void ParserDwaWorker::add_positive_check(Collector& into, const Outcome& check, TokenSetId tokens) {
  if (tokens.is_empty()) return;
  if (!check.accepted.is_empty()) {
    into.accepted_parts.push_back(tokens);
  } else if (check.work != 0) {
    into.groups.push_back({{shared_.items_of(check.work)}, tokens, 0, true});
  }
}

WorkId ParserDwaWorker::prune_work(WorkId work, TokenSetId all) {
  if (work == 0 || all.is_empty()) return work;
  Collector rest;
  merge(rest, {TokenSetPool::empty(), work});
  erase_decided(rest.items, all);
  for (Group& group : rest.groups) {
    group.held = shared_.pool.subtract(group.held, all);
    if (group.positive) continue;
    std::vector<Item> body(item_set(group.body));
    erase_decided(body, all);
    group.body = intern_items(body);
  }
  return finish(rest).work;
}

void ParserDwaWorker::defer(Collector& into, std::uint32_t cont) {
  const TokenSetId tokens = pending(cont);
  if (!tokens.is_empty())
    into.conditionals.push_back({condition(ConditionKind::kDeferred, {}, 0), tokens, 0});
}

ConditionSetId ParserDwaWorker::condition(ConditionKind kind, lexer::IndentText text,
                                          std::uint32_t value) {
  const std::uint32_t record[2] = {
      static_cast<std::uint32_t>(kind) | static_cast<std::uint32_t>(text.kind) << 8,
      kind == ConditionKind::kDepthIs || kind == ConditionKind::kDepthAbove ? value : text.width};
  const std::uint32_t atom = shared_.condition_atoms.intern(record, ItemsHash{}(record));
  return shared_.condition_sets.intern({&atom, 1},
                                       ItemsHash{}(std::span<const std::uint32_t>(&atom, 1)));
}

ConditionSetId ParserDwaWorker::conjoin(ConditionSetId a, ConditionSetId b) {
  if (a == 0 || a == b) return b;
  if (b == 0) return a;
  const std::vector<std::uint32_t>& left = shared_.condition_sets[a];
  const std::vector<std::uint32_t>& right = shared_.condition_sets[b];
  std::vector<std::uint32_t> both;
  std::set_union(left.begin(), left.end(), right.begin(), right.end(), std::back_inserter(both));
  return shared_.condition_sets.intern(both, ItemsHash{}(both));
}

IndentedContinuation ParserDwaWorker::record(std::uint32_t cont) const {
  const std::vector<std::uint32_t>& words = shared_.indented_conts[payload_of(cont)];
  return {static_cast<IndentedType>(words[0]), words[1], words[2], words[3], words[4], words[5]};
}

std::uint32_t ParserDwaWorker::make_continuation(const IndentedContinuation& r) {
  const std::uint32_t words[6] = {static_cast<std::uint32_t>(r.type), r.a, r.b, r.c, r.ctx, r.text};
  const std::uint32_t id = shared_.indented_conts.intern(words, ItemsHash{}(words));
  if (id >= kPayloadLimit) throw Error("wfa: too many Parser DWA continuations", ErrorCode::kLimit);
  return continuation(ContinuationKind::kIndented, id);
}

std::uint32_t ParserDwaWorker::trie_continuation(bool root, std::uint32_t id, IndentCtx ctx) {
  const lexer::DwaNodeId node = root ? dwa_.root(id) : id;
  // Only what can still matter below the node tells contexts apart: past the closing brackets
  // left, the depth stays above 0; without a newline label below, no second newline comes.
  const int closes = shared_.closes_below[node];
  if (ctx.net > closes) ctx = {closes + 1, true, ctx.newline_seen};
  if (shared_.newline_below[node] == 0) ctx.newline_seen = false;
  if (ctx.neutral())
    return continuation(root ? ContinuationKind::kStart : ContinuationKind::kNode, id);
  return make_continuation(
      {root ? IndentedType::kRoot : IndentedType::kTrie, id, 0, 0, ctx.pack(), 0});
}

std::uint32_t ParserDwaWorker::dedent_continuation(DedentMode mode, std::uint32_t text,
                                                   std::uint32_t next) {
  return make_continuation(
      {IndentedType::kDedent, next, static_cast<std::uint32_t>(mode), 0, 0, text});
}

void ParserDwaWorker::expand_trie(Collector& into, bool root, std::uint32_t id, IndentCtx ctx,
                                  VirtualStackId stack) {
  const lexer::DwaNodeId node = root ? dwa_.root(id) : id;
  const auto accept = [&](TokenSetId tokens) {
    if (tokens.value() >= kPayloadLimit)
      throw Error("wfa: too many token sets for the Parser DWA", ErrorCode::kLimit);
    return continuation(ContinuationKind::kAccept, tokens.value());
  };
  const auto finish_check = [&](TokenSetId tokens) {
    return make_continuation({IndentedType::kFinishCheck, tokens.value(), 0, 0, 0, 0});
  };
  // "Can the input end after the final _DEDENTs?" is asked once per stack for all tokens.
  const auto finish_check_of = [&]() {
    return feed(shared_.dedent_lookahead, finish_check(TokenSetPool::full()), stack);
  };
  if (root && dwa_.can_finish(id) && !shared_.eos.is_empty()) {
    // EOS: the indenter's final _DEDENTs, then the end of input.
    merge(into, feed(shared_.end_lookahead, accept(shared_.eos), stack));
    add_positive_check(into, finish_check_of(), shared_.eos);
  }
  const ParserDwaShared::IndentChecks& checks = shared_.indent_checks[node];
  for (const auto& [lookahead, tokens] : checks.plain)
    merge(into, feed(lookahead, accept(tokens), stack));
  // The end of input may need the indenter's final _DEDENTs first; a newline's width is free.
  // Each is one check per node, over all its weights that can take it.
  if (!checks.end.is_empty()) add_positive_check(into, finish_check_of(), checks.end);
  if (!checks.newline.is_empty()) newline_check(into, ctx, checks.newline, stack);
  for (const lexer::DwaEdge& edge : dwa_.edges(node))
    feed_label_indented(into, edge.label, ctx, false, edge.child, stack);
}

void ParserDwaWorker::newline_check(Collector& into, IndentCtx ctx, TokenSetId tokens,
                                    VirtualStackId stack) {
  // Inside brackets the indenter drops the newline: takeable like ignored text.
  if (ctx.net > 0) {
    into.accepted_parts.push_back(tokens);
    return;
  }
  if (ctx.depth_known && ctx.net < 0) return;
  // At depth 0 its width is free: the top again, wider (_INDENT) or a level below (_DEDENTs).
  // The check does not depend on the tokens: one positive group per stack holds them all.
  add_positive_check(into,
                     feed(shared_.newline_lookahead,
                          make_continuation({IndentedType::kNewlineCheck,
                                             TokenSetPool::full().value(), 0, 0, 0, 0}),
                          stack),
                     tokens);
  // With the depth before the token unknown, the newline is dropped where it is above -net. The
  // check above may accept some of the tokens there too: they are allowed there anyway.
  if (!ctx.depth_known)
    into.conditionals.push_back(
        {condition(ConditionKind::kDepthAbove, {}, static_cast<std::uint32_t>(-ctx.net)), tokens,
         0});
}

void ParserDwaWorker::feed_label_indented(Collector& into, lexer::LabelId label, IndentCtx ctx,
                                          bool root, std::uint32_t child, VirtualStackId stack) {
  const lexer::LexerDfa& dfa = dwa_.dfa();
  const lexer::LabelId base = lexer::base_label(label);
  if (dfa.label_is_ignored(base)) {
    merge(into, expand(trie_continuation(root, child, ctx), stack));
    return;
  }
  // A lexer label with the newline can only be an early label: its text is the session's.
  const lexer::IndentText text = lexer::is_indent_label(label)
                                     ? lexer::indent_text(label)
                                     : lexer::IndentText{lexer::IndentTextKind::kRelative, 0};
  boost::container::small_vector<SymbolId, 8> by_bracket[3];  // closing, other, opening
  bool skip = false;
  for (const std::uint32_t terminal : dfa.label_terminals(base)) {
    if (dfa.terminals()[terminal].ignored) {
      skip = true;
    } else if (terminal == shared_.indenter->newline) {
      feed_newline(into, text, ctx, root, child, stack);
    } else {
      by_bracket[shared_.label_bracket[terminal] + 1].push_back(terminal);
    }
  }
  if (skip) merge(into, expand(trie_continuation(root, child, ctx), stack));
  for (int effect = -1; effect <= 1; ++effect) {
    auto& terminals = by_bracket[effect + 1];
    if (terminals.empty()) continue;
    IndentCtx after = ctx;
    after.net += effect;
    merge(into, feed(intern_lookahead({terminals.data(), terminals.size()}),
                     trie_continuation(root, child, after), stack));
  }
}

void ParserDwaWorker::feed_newline(Collector& into, lexer::IndentText text, IndentCtx ctx,
                                   bool root, std::uint32_t child, VirtualStackId stack) {
  const auto process = [&](Collector& at, IndentCtx zero) {
    if (zero.newline_seen) {
      // A second newline in one token: left to get_mask (docs/wfa.md, "Indenter").
      defer(at, trie_continuation(root, child, zero));
      return;
    }
    if (text.kind == lexer::IndentTextKind::kNoNewline) return;  // the indenter refuses it
    const std::uint32_t next = trie_continuation(root, child, IndentCtx{0, true, true});
    merge(at,
          feed(shared_.newline_lookahead,
               make_continuation({IndentedType::kNewline, next, 0, 0, 0, pack_text(text)}), stack));
  };
  if (ctx.net > 0) {  // inside brackets: dropped
    merge(into, expand(trie_continuation(root, child, ctx), stack));
    return;
  }
  if (ctx.depth_known) {
    if (ctx.net == 0) process(into, ctx);
    return;
  }
  const auto level = static_cast<std::uint32_t>(-ctx.net);
  merge_conditional(into, condition(ConditionKind::kDepthAbove, {}, level),
                    expand(trie_continuation(root, child, ctx), stack));
  Collector at_zero;
  process(at_zero, IndentCtx{0, true, ctx.newline_seen});
  merge_conditional(into, condition(ConditionKind::kDepthIs, {}, level), finish(at_zero));
}

void ParserDwaWorker::feed_dedent(Collector& into, std::uint32_t text, std::uint32_t next,
                                  VirtualStackId stack) {
  // The virtual stack holds one state read from the real stack, at its bottom; the rest was
  // pushed, and only shifting _INDENT pushes a frame (never done before the token's first
  // newline). If the state read is a frame that no _DEDENT above it closed, this _DEDENT closes
  // it, and the level below it is asked of the walk now; otherwise the frame is further down.
  bool read_frame = shared_.indent_frame[stacks_.bottom(stack)] != 0;
  for (VirtualStackId v = stack; read_frame && stacks_.depth(v) > 1; v = stacks_.pop(v, 1))
    if (shared_.dedent_state[stacks_.top(v)] != 0) read_frame = false;
  if (!read_frame) {
    merge(into, feed(shared_.dedent_lookahead,
                     dedent_continuation(DedentMode::kPending, text, next), stack));
    return;
  }
  const lexer::IndentText width = unpack_text(text);
  merge_conditional(
      into, condition(ConditionKind::kFrameEqual, width, 0),
      feed(shared_.dedent_lookahead, dedent_continuation(DedentMode::kLast, text, next), stack));
  // Going on needs no condition (see the frame read in advance()).
  merge(into,
        feed(shared_.dedent_lookahead, dedent_continuation(DedentMode::kMore, text, next), stack));
}

void ParserDwaWorker::expand_indented(Collector& into, const IndentedContinuation& r,
                                      VirtualStackId stack) {
  const auto accept = [&](std::uint32_t tokens) {
    return continuation(ContinuationKind::kAccept, tokens);
  };
  const auto check = [&](IndentedType type, std::uint32_t tokens) {
    return make_continuation({type, tokens, 0, 0, 0, 0});
  };
  switch (r.type) {
    case IndentedType::kTrie:
    case IndentedType::kRoot:
      expand_trie(into, r.type == IndentedType::kRoot, r.a, IndentCtx::unpack(r.ctx), stack);
      return;
    case IndentedType::kNewline: {
      // The newline was shifted; what follows depends on its width against the top level.
      const lexer::IndentText text = unpack_text(r.text);
      merge_conditional(into, condition(ConditionKind::kTopEqual, text, 0), expand(r.a, stack));
      merge_conditional(into, condition(ConditionKind::kTopAbove, text, 0),
                        feed(shared_.indent_lookahead, r.a, stack));
      // Below the top: _DEDENTs. That needs no condition: a width at or above the top lands on
      // no level below it, so no frame read lets the work through (advance()).
      feed_dedent(into, r.text, r.a, stack);
      return;
    }
    case IndentedType::kDedent:
      switch (static_cast<DedentMode>(r.b)) {
        case DedentMode::kLast:
          merge(into, expand(r.a, stack));
          return;
        case DedentMode::kMore:
          feed_dedent(into, r.text, r.a, stack);
          return;
        case DedentMode::kPending:
          // The _DEDENT was shifted before its frame was read (not so in SynCode's grammars).
          defer(into, r.a);
          return;
      }
      return;
    case IndentedType::kNewlineCheck:
      merge(into, feed(shared_.ordinary_or_end, accept(r.a), stack));
      merge(into, feed(shared_.indent_lookahead, check(IndentedType::kDedentCheck, r.a), stack));
      merge(into, feed(shared_.dedent_lookahead, check(IndentedType::kDedentCheck, r.a), stack));
      return;
    case IndentedType::kDedentCheck:
      merge(into, feed(shared_.ordinary_or_end, accept(r.a), stack));
      merge(into, feed(shared_.dedent_lookahead, check(IndentedType::kDedentCheck, r.a), stack));
      return;
    case IndentedType::kFinishCheck:
      merge(into, feed(shared_.end_lookahead, accept(r.a), stack));
      merge(into, feed(shared_.dedent_lookahead, check(IndentedType::kFinishCheck, r.a), stack));
      return;
  }
}

}  // namespace glrmask::mask::construction
