// vkcollide's default Allocator: large blocks per (memory type, linear or optimal) pool with a
// first-fit free list; big requests get a dedicated block.
#pragma once

#include "vkcollide/allocator.h"

#include <memory>

namespace vkc {

struct VulkanContext;

// Blocks of this size are carved up; a request of at least half of it gets its own memory.
constexpr VkDeviceSize kBlockSize = 64ull << 20;

// The allocator keeps `ctx` by reference and must die before ctx.device.
std::unique_ptr<Allocator> createBlockAllocator(VulkanContext& ctx);

}  // namespace vkc
