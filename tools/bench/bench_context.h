// The Vulkan context every GPU benchmark runs on: headless, with the library's warnings and errors
// on stderr so that a skipped or slow case says why.
#pragma once

#include "vkcollide/context.h"
#include "vkcollide/status.h"

namespace vkc::bench {

Result<Context> createBenchContext();

// Whether the environment variable `name` is "1" (VKC_BENCH_LARGE_MESHES, VKC_BENCH_COMPARE_PAIRS).
bool envIsOne(const char* name);

}  // namespace vkc::bench
