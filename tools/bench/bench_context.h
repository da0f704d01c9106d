// The Vulkan context every GPU benchmark runs on: headless, with the library's warnings and errors
// on stderr so that a skipped or slow case says why.
#pragma once

#include "vkcollide/context.h"
#include "vkcollide/status.h"

namespace vkc::bench {

Result<Context> createBenchContext();

}  // namespace vkc::bench
