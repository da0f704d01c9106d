// Where the campaign tests find ../shared/meshes.
#pragma once

#include <cstdlib>
#include <filesystem>

namespace vkc::test {

// VKC_SHARED_DIR (set by ctest), else the shared/ folder beside the source tree.
inline std::filesystem::path difftestMeshDir() {
    const char* env = std::getenv("VKC_SHARED_DIR");
    const std::filesystem::path shared = env != nullptr && *env != '\0' ? env : VKC_DEFAULT_SHARED_DIR;
    return shared / "meshes";
}

}  // namespace vkc::test
