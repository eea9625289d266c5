// TerminalDwa::write / read: the automaton as flat arrays, for compiled artifacts.
#include <fmt/format.h>

#include <algorithm>

#include "lexer/terminal_dwa/indent_label.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lib/core/binary_io.h"

namespace glrmask::lexer {

namespace {

constexpr uint32_t kSectionTag = 0x41574454;  // "TDWA"

}  // namespace

void TerminalDwa::write(BinaryWriter& out,
                        const std::function<uint32_t(TokenSetId)>& stored_id) const {
  out.put(kSectionTag);
  out.put<uint32_t>(indent_labeling_ ? 1 : 0);
  out.put<uint32_t>(indent_labeling_ ? indent_labeling_->newline_terminal : 0);
  out.put<uint32_t>(indent_labeling_ ? indent_labeling_->tab_len : 0);
  out.put<uint64_t>(forks_.size());
  for (const LexerFork& fork : forks_) {
    out.put(fork.state);
    out.put_array<uint32_t>(fork.inhibitors);
  }
  out.put_array<ForkPosition>(positions_);
  out.put_array<DwaNodeId>(roots_);
  std::vector<uint32_t> alive;
  alive.reserve(alive_.size());
  for (const TokenSetId set : alive_) alive.push_back(stored_id(set));
  out.put_array<uint32_t>(alive);
  out.put_array<uint32_t>(next_begin_);
  out.put_array<uint32_t>(next_terminals_);
  out.put_array<ForkId>(origin_fork_);
  out.put_array<TokenId>(origin_token_);
  out.put_array<uint32_t>(edge_begin_);
  out.put_array<DwaEdge>(edges_);
  out.put_array<uint32_t>(weight_begin_);
  std::vector<DwaWeight> weights = weights_;
  for (DwaWeight& weight : weights) weight.tokens = TokenSetId{stored_id(weight.tokens)};
  out.put_array<DwaWeight>(weights);
  out.put(stats_);
}

TerminalDwa TerminalDwa::read(BinaryReader& in, const LexerDfa& dfa,
                              const std::function<TokenSetId(uint32_t)>& pool_id) {
  if (in.get<uint32_t>("Terminal DWA section tag") != kSectionTag)
    in.fail("expected the Terminal DWA section");
  TerminalDwa dwa(dfa);
  const auto labeling = in.get<uint32_t>("indent labeling flag");
  const auto newline = in.get<uint32_t>("newline terminal");
  const auto tab_len = in.get<uint32_t>("tab length");
  if (labeling > 1 || (labeling == 1 && newline >= dfa.terminals().size()))
    in.fail("the Terminal DWA's indent labeling is malformed");
  if (labeling == 1) dwa.indent_labeling_ = IndentLabeling{newline, tab_len};
  const auto forks = in.get<uint64_t>("fork count");
  for (uint64_t i = 0; i < forks; ++i) {
    LexerFork fork;
    fork.state = in.get<uint32_t>("fork state");
    fork.inhibitors = in.get_array<uint32_t>("fork inhibitors");
    if (fork.state >= dfa.num_states())
      in.fail(fmt::format("fork {}: no DFA state {}", i, fork.state));
    for (std::size_t k = 0; k < fork.inhibitors.size(); ++k) {
      // An inhibitor is a DFA state, marked kHeldEmission when its lexeme's match was tentative
      // (lexer_fork.h); the marked values sort after the plain ones.
      const uint32_t state = fork.inhibitors[k] & ~kHeldEmission;
      if (state == LexerDfa::kDeadState || state >= dfa.num_states() ||
          (k > 0 && fork.inhibitors[k - 1] >= fork.inhibitors[k]))
        in.fail(fmt::format("fork {}: its inhibitors are not ascending DFA states", i));
    }
    if (!dwa.fork_ids_.emplace(fork, static_cast<ForkId>(dwa.forks_.size())).second)
      in.fail(fmt::format("fork {} is stored twice", i));
    dwa.forks_.push_back(std::move(fork));
  }
  dwa.positions_ = in.get_array<ForkPosition>("fork positions");
  dwa.roots_ = in.get_array<DwaNodeId>("fork roots");
  for (const uint32_t stored : in.get_array<uint32_t>("alive sets"))
    dwa.alive_.push_back(pool_id(stored));
  dwa.next_begin_ = in.get_array<uint32_t>("next-terminal offsets");
  dwa.next_terminals_ = in.get_array<uint32_t>("next terminals");
  dwa.origin_fork_ = in.get_array<ForkId>("fork origins");
  dwa.origin_token_ = in.get_array<TokenId>("fork origin tokens");
  dwa.edge_begin_ = in.get_array<uint32_t>("edge offsets");
  dwa.edges_ = in.get_array<DwaEdge>("edges");
  dwa.weight_begin_ = in.get_array<uint32_t>("weight offsets");
  dwa.weights_ = in.get_array<DwaWeight>("weights");
  for (DwaWeight& weight : dwa.weights_) weight.tokens = pool_id(weight.tokens.value());
  dwa.stats_ = in.get<TerminalDwaStats>("Terminal DWA statistics");
  // Every array that is indexed by another must be long enough for it.
  const size_t nodes = dwa.edge_begin_.empty() ? 0 : dwa.edge_begin_.size() - 1;
  const bool consistent = dwa.positions_.size() == forks && dwa.roots_.size() == forks &&
                          dwa.alive_.size() == forks && dwa.next_begin_.size() == forks + 1 &&
                          dwa.origin_fork_.size() == forks && dwa.origin_token_.size() == forks &&
                          dwa.weight_begin_.size() == nodes + 1 && !dwa.next_begin_.empty() &&
                          dwa.next_begin_.back() == dwa.next_terminals_.size() &&
                          !dwa.edge_begin_.empty() && dwa.edge_begin_.back() == dwa.edges_.size() &&
                          dwa.weight_begin_.back() == dwa.weights_.size();
  if (!consistent) in.fail("the Terminal DWA's arrays do not fit together");
  // Offsets delimit spans: ascending from 0, or a span would run backwards over other memory.
  for (const auto* offsets : {&dwa.next_begin_, &dwa.edge_begin_, &dwa.weight_begin_})
    if (offsets->front() != 0 || !std::is_sorted(offsets->begin(), offsets->end()))
      in.fail("the Terminal DWA's offsets are not ascending from 0");
  // Forks are numbered as they are found, each from one found before it (example_path() walks
  // these back to the initial fork).
  for (size_t i = 1; i < forks; ++i)
    if (dwa.origin_fork_[i] >= i)
      in.fail(fmt::format("fork {} has the origin fork {}, not one found before it", i,
                          dwa.origin_fork_[i]));
  // child() binary-searches a node's edges by label.
  for (size_t node = 0; node < nodes; ++node)
    for (uint32_t e = dwa.edge_begin_[node] + 1; e < dwa.edge_begin_[node + 1]; ++e)
      if (dwa.edges_[e - 1].label >= dwa.edges_[e].label)
        in.fail(
            fmt::format("Terminal DWA node {}: its edges are not in ascending label order", node));
  for (const DwaNodeId root : dwa.roots_)
    if (root >= nodes) in.fail(fmt::format("a fork root names node {} of {}", root, nodes));
  for (const DwaEdge& edge : dwa.edges_)
    if (edge.child >= nodes || base_label(edge.label) >= dfa.num_labels() ||
        (is_indent_label(edge.label) && labeling == 0))
      in.fail("a Terminal DWA edge points outside the automaton");
  for (const DwaWeight& weight : dwa.weights_)
    if (weight.end >= forks) in.fail("a Terminal DWA weight names a fork that does not exist");
  return dwa;
}

}  // namespace glrmask::lexer
