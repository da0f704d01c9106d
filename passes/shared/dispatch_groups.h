// The workgroups a dispatch needs to give every one of `threads` invocations a thread.
#pragma once

#include <cstdint>

namespace vkc {

inline uint32_t groupsFor(uint32_t threads, uint32_t groupSize) { return (threads + groupSize - 1) / groupSize; }

}  // namespace vkc
