// A GraphResourceAllocator without a device for the graph tests: records what the graph asked
// for (names, usage flags, timestamp counts) and destroyed, and hands out recognisable fake handles.
#pragma once

#include "passes/graph/graph_resources.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vkc::test {

inline VkBuffer fakeBuffer(uintptr_t value) { return reinterpret_cast<VkBuffer>(value); }
inline VkImage fakeImage(uintptr_t value) { return reinterpret_cast<VkImage>(value); }

// Records what the graph asked for and hands out recognisable fake handles.
class FakeGraphAllocator : public GraphResourceAllocator {
public:
    Result<GraphBuffer> createBuffer(const char* name, const GraphBufferDesc&, VkBufferUsageFlags usage) override {
        if (failBuffers) return makeError(ErrorCode::OutOfDeviceMemory, "no memory", VK_ERROR_OUT_OF_DEVICE_MEMORY);
        names.push_back(name);
        bufferUsages.push_back(usage);
        return GraphBuffer{fakeBuffer(0x1000 + names.size())};
    }
    Result<GraphImage> createImage(const char* name, const GraphImageDesc&, VkImageUsageFlags usage) override {
        names.push_back(name);
        imageUsages.push_back(usage);
        return GraphImage{fakeImage(0x2000 + names.size()), reinterpret_cast<VkImageView>(uintptr_t(0x3000))};
    }
    Result<GraphTimestamps> createTimestamps(const char* name, uint32_t queries) override {
        names.push_back(name);
        timestampQueries.push_back(queries);
        return GraphTimestamps{reinterpret_cast<VkQueryPool>(uintptr_t(0x4000 + names.size())),
                               fakeBuffer(0x5000 + names.size()), nullptr, queries};
    }
    void destroyBuffer(const GraphBuffer& buffer) override { destroyed.push_back(uintptr_t(buffer.buffer)); }
    void destroyImage(const GraphImage& image) override { destroyed.push_back(uintptr_t(image.image)); }
    void destroyTimestamps(const GraphTimestamps& timestamps) override {
        destroyed.push_back(uintptr_t(timestamps.pool));
    }
    bool failBuffers = false;
    std::vector<std::string> names;
    std::vector<uint32_t> timestampQueries;
    std::vector<uintptr_t> destroyed;
    std::vector<VkBufferUsageFlags> bufferUsages;
    std::vector<VkImageUsageFlags> imageUsages;
};

}  // namespace vkc::test
