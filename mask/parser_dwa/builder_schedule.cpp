#include <fmt/format.h>

#include <thread>

#include "lib/core/check.h"
#include "lib/core/error.h"
#include "lib/core/process_memory.h"
#include "mask/parser_dwa/builder_preparation.h"
#include "mask/parser_dwa/builder_worker.h"

namespace glrmask::mask::construction {

void ParserDwaWorker::seed(std::vector<DwaStateId>& start_states,
                           std::vector<EarlyStart>& early_starts) {
  std::size_t requests = 0;
  start_states.reserve(dwa_.num_forks());
  for (lexer::ForkId fork = 0; fork < dwa_.num_forks(); ++fork) {
    Item start{continuation(ContinuationKind::kStart, fork), kNoLookahead, 0, glr::kNoSymbol};
    const DwaStateId state = state_for(intern_items({&start, 1}));
    start_states.push_back(state);
    requests += request(state, shared_.start_reads.empty() ? std::span(shared_.first_reads)
                                                           : std::span(shared_.start_reads[fork]));
  }
  if (shared_.options.early_label_starts) {
    for (const auto& [label, fork] : early_label_pairs(dwa_)) {
      // A plain label is fed as its lookahead; one with a skippable terminal (Go's newline
      // EOS, which may go on as more newlines) as the label itself, shifted or dropped by the
      // stack the state reads.
      LookaheadId lookahead = shared_.plain_lookaheads[label];
      if (lookahead == kNoLookahead) {
        if (dwa_.dfa().label_is_ignored(label)) continue;
        lookahead = kLabelItem | label;
      }
      Item start{continuation(ContinuationKind::kStart, fork), lookahead, 0, glr::kNoSymbol};
      const DwaStateId state = state_for(intern_items({&start, 1}));
      early_starts.push_back({label, fork, state});
      requests += request(state, shared_.first_reads);
    }
  }
  schedule_.outstanding += static_cast<std::int64_t>(requests);
}

std::size_t ParserDwaWorker::request(DwaStateId state, std::span<const StateId> reads) {
  std::size_t added = 0;
  for (const StateId read : reads) {
    const std::size_t owner = schedule_.owner(read);
    if (owner != index_) {
      outboxes_[owner].push_back({state, read});
      ++added;
    } else if (enqueue({state, read})) {
      ++added;
    }
  }
  return added;
}

bool ParserDwaWorker::enqueue(const Request& request) {
  GLRMASK_DCHECK(schedule_.owner(request.read) == index_, "worker {} queued read {} of worker {}",
                 index_, request.read, schedule_.owner(request.read));
  if (!requested_.find_or_insert(std::uint64_t{request.state.value()} << 32 | request.read, 1)
           .second)
    return false;
  std::vector<DwaStateId>& bucket = pending_by_read_[request.read];
  if (bucket.empty()) reads_with_work_.push_back(request.read);
  bucket.push_back(request.state);
  return true;
}

void ParserDwaWorker::flush_outboxes() {
  for (std::size_t worker = 0; worker < outboxes_.size(); ++worker) {
    std::vector<Request>& out = outboxes_[worker];
    if (out.empty()) continue;
    ParserDwaSchedule::Inbox& inbox = schedule_.inboxes[worker];
    const std::lock_guard lock(inbox.mutex);
    inbox.requests.insert(inbox.requests.end(), out.begin(), out.end());
    out.clear();
  }
}

void ParserDwaWorker::drain_inbox() {
  ParserDwaSchedule::Inbox& inbox = schedule_.inboxes[index_];
  {
    const std::lock_guard lock(inbox.mutex);
    inbox_scratch_.swap(inbox.requests);
  }
  std::int64_t duplicates = 0;
  for (const Request& request : inbox_scratch_) duplicates += enqueue(request) ? 0 : 1;
  inbox_scratch_.clear();
  if (duplicates != 0) schedule_.outstanding -= duplicates;
  // Work in flight is counted before it is discounted, so the count never goes below zero.
  GLRMASK_DCHECK(schedule_.outstanding >= 0, "outstanding requests {}",
                 schedule_.outstanding.load());
}

void ParserDwaWorker::charge_transition(bool live) {
  live_since_check_ += live ? 1 : 0;
  if (++computed_since_check_ < kBudgetBatch) return;
  computed_since_check_ = 0;
  const ParserDwaOptions& options = shared_.options;
  const std::uint64_t found =
      shared_.transitions_found.fetch_add(live_since_check_, std::memory_order_relaxed) +
      live_since_check_;
  live_since_check_ = 0;
  if (options.max_transitions != 0 && found > options.max_transitions) {
    throw Error(fmt::format("wfa: the Parser DWA needs more than {} transitions (limit "
                            "Limits::max_parser_dwa_transitions)",
                            options.max_transitions),
                ErrorCode::kLimit);
  }
  if (options.max_memory_bytes != 0) {
    const std::size_t resident = resident_memory_bytes();
    if (resident > options.max_memory_bytes) {
      throw Error(
          fmt::format("wfa: building the Parser DWA took the process to {} MiB of "
                      "resident memory, above {} MiB (limit Limits::max_compile_memory_mib)",
                      resident >> 20, options.max_memory_bytes >> 20),
          ErrorCode::kLimit);
    }
  }
}

void ParserDwaWorker::compute_read(StateId read) {
  // A read's memo tables are its owner's alone (ParserDwaSchedule).
  GLRMASK_DCHECK(schedule_.owner(read) == index_, "worker {} computes read {} of worker {}", index_,
                 read, schedule_.owner(read));
  std::vector<DwaStateId>& bucket = pending_by_read_[read];  // the outer vector never grows
  while (!bucket.empty() && !schedule_.stop) {
    const DwaStateId state = bucket.back();
    bucket.pop_back();
    const auto branch_begin = static_cast<std::uint32_t>(found_branches_.size());
    const auto [target, weight] = transition(state, read);
    std::size_t added = 0;
    if (target == DwaStateId{ParserDwa::kBranchBit}) {
      const auto branch_end = static_cast<std::uint32_t>(found_branches_.size());
      found_.push_back({state, read, target, weight, branch_begin, branch_end});
      for (std::uint32_t b = branch_begin; b < branch_end; ++b)
        if (found_branches_[b].target != ParserDwa::kDeadState)
          added += request(found_branches_[b].target, shared_.predecessors[read]);
    } else if (target != ParserDwa::kDeadState || !weight.is_empty()) {
      found_.push_back({state, read, target, weight});
      if (target != ParserDwa::kDeadState) added = request(target, shared_.predecessors[read]);
    }
    charge_transition(target != ParserDwa::kDeadState || !weight.is_empty());
    // What this step requested is counted before the step itself is discounted.
    if (added != 1) schedule_.outstanding += static_cast<std::int64_t>(added) - 1;
    flush_outboxes();
  }
}

void ParserDwaWorker::run() {
  try {
    while (!schedule_.stop) {
      flush_outboxes();
      drain_inbox();
      if (!reads_with_work_.empty()) {
        const StateId read = reads_with_work_.back();
        reads_with_work_.pop_back();
        compute_read(read);
        continue;
      }
      if (schedule_.outstanding == 0) break;
      std::this_thread::yield();
    }
  } catch (...) {
    schedule_.fail(std::current_exception());
  }
}

}  // namespace glrmask::mask::construction
