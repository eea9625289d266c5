#include "mask/wfa/indented_walk.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

#include "glr/parse_view.h"
#include "lib/core/error.h"
#include "mask/wfa/wfa_engine.h"

namespace glrmask::mask {

IndentedWalk::IndentedWalk(const CompiledMask& compiled)
    : indenter_(*compiled.grammar().indenter()), has_future_(compiled.forks_with_future().data()) {
  const glr::Lr0Automaton& lr0 = compiled.grammar().lalr().lr0();
  const std::uint32_t states = compiled.grammar().table().num_states();
  indent_frame_.assign(states, 0);
  dedent_state_.assign(states, 0);
  for (glr::StateId x = 0; x < states; ++x) {
    indent_frame_[x] = lr0.accessing_symbol(x) == indenter_.indent;
    dedent_state_[x] = lr0.accessing_symbol(x) == indenter_.dedent;
  }
}

const std::uint32_t* IndentedWalk::compute(WfaEngine& engine, const glr::ParseView& parse,
                                           std::span<std::uint32_t> words) {
  engine.collected_.clear();
  deferred_.clear();
  const glr::ParsePosition& position = parse.position();
  const lexer::LexerConfiguration& configuration = position.lexer;
  // One entry: every indenter branch of the position, each walk with the branch's state.
  const auto run = [&](DwaStateId start, std::span<const lexer::LabelId> feed,
                       std::span<const glr::TextPart> texts, glr::TextPart carried_part,
                       bool early) {
    engine.counters_[WfaEngine::kEarlyLabelEntries].value += early ? 1 : 0;
    const glr::IndentScan carried = carried_part.resolve(position.accepted_scan);
    for (const glr::IndentedStacks& branch : position.branches) {
      if (feed.empty()) {
        engine.counters_[WfaEngine::kEntries].value += 1;
        engine.visited_.clear();
        walk(engine, start, branch.heads,
             {branch.indenter.bracket_depth, branch.indenter.levels, carried});
        continue;
      }
      // Early labels without a start state of their own go through the indenter and the
      // parser first; the indenter may then be in several states.
      engine.counters_[WfaEngine::kEarlyLabelFeeds].value += 1;

      std::vector<glr::IndentedStacks> fed = {branch};
      bool parses = true;
      for (std::size_t i = 0; i < feed.size() && parses; ++i)
        parses = parse.recognizer().feed_indented(fed, feed[i],
                                                  texts[i].resolve(position.accepted_scan));
      if (!parses) continue;
      for (const glr::IndentedStacks& after : fed) {
        engine.counters_[WfaEngine::kEntries].value += 1;
        engine.visited_.clear();
        walk(engine, start, after.heads,
             {after.indenter.bracket_depth, after.indenter.levels, carried});
      }
    }
  };
  if (const auto cached = engine.entry_cache_.find(configuration)) {
    for (const LexerEntryCache::Entry& entry : *cached)
      run(entry.start, entry.early_labels(), {entry.texts.data(), entry.label_count}, entry.carried,
          entry.early);
  } else {
    const lexer::LexerDfa& dfa = engine.terminal_dwa_.dfa();
    const auto has_newline = [&](lexer::LabelId label) {
      const auto terminals = dfa.label_terminals(label);
      return std::find(terminals.begin(), terminals.end(), indenter_.newline) != terminals.end();
    };
    const std::vector<glr::ForkTexts>& forks =
        fork_texts_.forks(dfa, configuration, indenter_.tab_len);
    std::array<LexerEntryCache::Entry, LexerEntryCache::kMaxEntries> resolved;
    std::size_t stored = 0;
    bool cacheable = true;
    for (const glr::ForkTexts& fork : forks) {
      const std::optional<lexer::ForkId> id = engine.terminal_dwa_.find_fork(fork.fork);
      if (!id)
        throw Error(fmt::format("wfa mask: the lexer configuration (DFA state {}, {} pending "
                                "bytes) has the fork {}, which no sequence of vocabulary tokens "
                                "reaches",
                                configuration.state, configuration.pending.size(),
                                lexer::describe_fork(fork.fork)),
                    ErrorCode::kUnsupported);
      // A fork from which no token can go on (a fall-back inside a docstring after a newline:
      // closing it fires the inhibitor) adds nothing, whatever its early labels.
      if (has_future_[*id] == 0) continue;
      DwaStateId start = engine.parser_dwa_.start_state(*id);
      std::span<const lexer::LabelId> feed = fork.labels;
      std::span<const glr::TextPart> texts = fork.texts;
      glr::TextPart carried = fork.carried;
      if (feed.size() == 1) {
        if (const auto early = engine.parser_dwa_.early_start_state(feed.front(), *id)) {
          start = *early;
          // An early newline's width is its own text's: the start state feeds it as relative 0.
          if (has_newline(feed.front())) carried = texts.front();
          feed = {};
          texts = {};
        }
      }
      run(start, feed, texts, carried, !fork.labels.empty());
      const auto made =
          LexerEntryCache::make_entry(start, feed, !fork.labels.empty(), texts, carried);
      if (!made || stored >= resolved.size()) {
        cacheable = false;
      } else {
        resolved[stored++] = *made;
      }
    }
    if (cacheable) engine.entry_cache_.insert(configuration, {resolved.data(), stored});
  }
  const std::uint32_t* result = engine.emit(words);
  if (deferred_.empty()) return result;
  // Tokens the automaton left open: tried on the session itself.
  if (result != nullptr && result != words.data())
    std::copy(result, result + words.size(), words.begin());
  const std::optional<TokenId> eos = engine.vocabulary_.eos();
  for (const TokenSetId set : deferred_) {
    for (const std::uint32_t token : engine.pool_.get(set)) {
      std::uint32_t& word = words[token / 32];
      const std::uint32_t bit = std::uint32_t{1} << (token % 32);
      if ((word & bit) != 0) continue;
      engine.counters_[WfaEngine::kDeferredTokens].value += 1;
      const bool allowed = eos && token == *eos
                               ? parse.is_accepting()
                               : parse.accepts_bytes(engine.vocabulary_.bytes(token));
      if (allowed) word |= bit;
    }
  }
  return nullptr;
}

void IndentedWalk::walk(WfaEngine& engine, DwaStateId start, std::span<const glr::GssNodeRef> heads,
                        const IndenterContext& context) {
  pending_.clear();
  for (const glr::GssNodeRef& head : heads)
    if (engine.visited_.insert(head.get(), start))
      pending_.push_back({head.get(), start, 0, 0, dedent_state_[head->state()] != 0});
  while (!pending_.empty()) {
    const Pending at = pending_.back();
    pending_.pop_back();
    engine.counters_[WfaEngine::kPairsVisited].value += 1;
    engine.counters_[WfaEngine::kDepthRead].value =
        std::max(engine.counters_[WfaEngine::kDepthRead].value, static_cast<double>(at.depth + 1));
    const glr::StateId read = at.node->state();
    const ParserDwaTransition* t = engine.parser_dwa_.find(at.state, read);
    if (t == nullptr) continue;
    if (!t->weight.is_empty()) engine.collected_.push_back(t->weight);
    if (t->target == ParserDwa::kDeadState) continue;
    // The frame count below this node, and what a condition on the frame read here asks about.
    const bool frame = indent_frame_[read] != 0;
    const bool closed = frame && at.closed_frame_pending;
    const std::int64_t frames_here = closed ? -1 : static_cast<std::int64_t>(at.frames_above);
    const std::uint32_t frames_below = at.frames_above + (frame && !closed ? 1 : 0);
    const bool closed_below = at.closed_frame_pending && !frame;
    const auto descend = [&](DwaStateId target) {
      for (const glr::GssNode* below : at.node->below())
        if (engine.visited_.insert(below, target))
          pending_.push_back({below, target, at.depth + 1, frames_below, closed_below});
    };
    if (!ParserDwa::is_branch(t->target)) {
      descend(t->target);
      continue;
    }
    for (const ParserDwaBranch& branch : engine.parser_dwa_.branch_group(t->target)) {
      bool taken = true;
      bool deferred = false;
      for (const std::uint32_t id : engine.parser_dwa_.condition_set(branch.conditions)) {
        const IndenterCondition& condition = engine.parser_dwa_.condition(id);
        if (condition.kind == ConditionKind::kDeferred) {
          deferred = true;
        } else if (!holds(condition, context, frames_here)) {
          taken = false;
          break;
        }
      }
      if (!taken) continue;
      if (deferred) {
        if (!branch.weight.is_empty()) deferred_.push_back(branch.weight);
        continue;
      }
      engine.counters_[WfaEngine::kBranchesTaken].value += branch.conditions != 0 ? 1 : 0;
      if (!branch.weight.is_empty()) engine.collected_.push_back(branch.weight);
      if (branch.target != ParserDwa::kDeadState) descend(branch.target);
    }
  }
}

}  // namespace glrmask::mask
