// Where the io tests find ../shared/meshes and the repository's bundled scenes.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace vkc::test {

// VKC_SHARED_DIR (set by ctest), else the shared/ folder beside the source tree.
inline std::filesystem::path sharedDir() {
    const char* env = std::getenv("VKC_SHARED_DIR");
    return env != nullptr && *env != '\0' ? std::filesystem::path(env) : std::filesystem::path(VKC_DEFAULT_SHARED_DIR);
}

inline std::filesystem::path meshPath(const char* name) { return sharedDir() / "meshes" / name; }

inline std::filesystem::path sourceDir() { return VKC_SOURCE_DIR; }

// A fresh folder under the system temp dir for files a test writes.
inline std::filesystem::path scratchDir(const char* testName) {
    const auto dir = std::filesystem::temp_directory_path() / ("vkc_io_tests_" + std::to_string(::getpid())) / testName;
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace vkc::test
