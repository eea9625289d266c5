// "Would this stack shift terminal t after its reductions?" answered by plain LR simulation, with
// no GSS nodes built, for the common case: the path below the head is a single stack and every
// table cell met holds one action. The session's viability test asks this about a handful of
// terminals after every commit; GlrParser::can_shift answers it in general but builds a level of
// nodes each time, which costs more than the whole rest of a typical commit.
#pragma once

#include <optional>

#include "glr/gss.h"
#include "glr/ids.h"
#include "glr/lr_table.h"

namespace glrmask::glr {

// true / false when the simulation stayed deterministic; nullopt when it met a node with several
// nodes below it that a reduction had to pop, a cell with several actions, or ran unusually
// long: then the caller asks GlrParser::can_shift.
std::optional<bool> linear_can_shift(const LrTable& table, const GssNode& head, SymbolId terminal);

}  // namespace glrmask::glr
