// A completeness check for ASCII PLY files before assimp reads them: assimp 5.2 fills the
// elements a truncated ASCII file lacks with zeros (vertices at the origin, faces 0 0 0) instead
// of failing, so a cut-off download would load as a plausible but wrong mesh.
#pragma once

#include "vkcollide/status.h"

#include <filesystem>

namespace vkc::io {

// Ok for binary PLY (assimp checks its sizes) and for an ASCII PLY with at least one data line per
// element the header announces. Errors: `mesh file "p": truncated: ...` (ErrorCode::InvalidMesh),
// or IoError when the file cannot be read.
Status checkAsciiPlyComplete(const std::filesystem::path& path);

}  // namespace vkc::io
