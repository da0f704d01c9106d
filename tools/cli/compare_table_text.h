// `vkcollide compare`'s table as text for a terminal: a block of rows per object pair, one row per
// method, aligned columns, and a line of each method's wall time.
#pragma once

#include "tools/cli/compare_table.h"

#include <iosfwd>
#include <span>
#include <string>

namespace vkc::tools {

// `title` heads the table; `objectNames` is indexed by object; `wallMs` parallels table.methods.
void printCompareTable(std::ostream& out, const std::string& title, const CompareTable& table,
                       std::span<const std::string> objectNames, std::span<const double> wallMs);

}  // namespace vkc::tools
