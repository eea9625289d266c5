#include "lib/tokenizer/bpe_merge_table.h"

#include "lib/core/error.h"

namespace glrmask {

void MergeTable::insert(TokenId left, TokenId right, Merge merge) {
  // (2^32 - 1, 2^32 - 1) packs to the empty marker of the table's keys.
  if (left == ~TokenId{0} && right == ~TokenId{0})
    throw Error("BPE merges: token id 4294967295 cannot be merged", ErrorCode::kTokenizer);
  merges_.insert_or_assign(pack(left, right), merge);
}

}  // namespace glrmask
