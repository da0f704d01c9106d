// The block sub-allocator, buffers and images, and the upload/read-back round trip.
#include "tests/support/vulkan_test.h"
#include "vk/block_allocator.h"
#include "vk/buffer.h"
#include "vk/image.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace vkc {
namespace {

class MemoryTest : public test::VulkanTest {
protected:
    AllocationRequest request(VkDeviceSize size, VkDeviceSize alignment, const char* name) {
        AllocationRequest r = {};
        r.requirements.size = size;
        r.requirements.alignment = alignment;
        r.requirements.memoryTypeBits = ~0u >> (32 - vk().memoryProperties.memoryTypeCount);
        r.usage = MemoryUsage::DeviceLocal;
        r.linear = true;
        r.name = name;
        return r;
    }
};

TEST_F(MemoryTest, SuballocationsHonourAlignmentAndNeverOverlap) {
    std::vector<Allocation> allocations;
    const VkDeviceSize sizes[] = {1, 100, 4096, 3, 777, 65536, 12};
    const VkDeviceSize alignments[] = {1, 256, 64, 1024, 4, 4096, 16};
    for (size_t i = 0; i < std::size(sizes); ++i) {
        Result<Allocation> a = vk().allocator->allocate(request(sizes[i], alignments[i], "aligned"));
        ASSERT_TRUE(a.ok()) << a.status().describe();
        EXPECT_EQ(a->offset % alignments[i], 0u) << "allocation " << i;
        EXPECT_EQ(a->size, sizes[i]);
        allocations.push_back(a.value());
    }
    for (size_t i = 0; i < allocations.size(); ++i)
        for (size_t j = i + 1; j < allocations.size(); ++j) {
            const Allocation& a = allocations[i];
            const Allocation& b = allocations[j];
            if (a.memory != b.memory) continue;
            bool disjoint = a.offset + a.size <= b.offset || b.offset + b.size <= a.offset;
            EXPECT_TRUE(disjoint) << i << " and " << j << " overlap";
        }
    // Small requests share blocks instead of one VkDeviceMemory each.
    EXPECT_EQ(allocations.front().memory, allocations.back().memory);
    for (const Allocation& a : allocations) vk().allocator->free(a);
}

TEST_F(MemoryTest, FreedRangeIsReusedAndNeighboursMerge) {
    Result<Allocation> a = vk().allocator->allocate(request(1000, 256, "a"));
    Result<Allocation> b = vk().allocator->allocate(request(1000, 256, "b"));
    ASSERT_TRUE(a.ok() && b.ok());
    VkDeviceMemory memory = a->memory;
    VkDeviceSize offsetA = a->offset;
    vk().allocator->free(a.value());
    Result<Allocation> c = vk().allocator->allocate(request(1000, 256, "c"));
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->memory, memory);
    EXPECT_EQ(c->offset, offsetA);  // first fit: the hole a left
    vk().allocator->free(b.value());
    vk().allocator->free(c.value());
    // Both freed: the merged range fits one allocation as big as both.
    Result<Allocation> d = vk().allocator->allocate(request(2000, 256, "d"));
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->memory, memory);
    EXPECT_EQ(d->offset, offsetA);
    vk().allocator->free(d.value());
}

TEST_F(MemoryTest, AbsurdSizeFailsWithOutOfDeviceMemoryNamingTheAllocation) {
    VkDeviceSize absurd = 1ull << 52;
    Result<Allocation> a = vk().allocator->allocate(request(absurd, 256, "gigantic scratch"));
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.status().code, ErrorCode::OutOfDeviceMemory);
    EXPECT_NE(a.status().message.find("gigantic scratch"), std::string::npos) << a.status().message;
    EXPECT_NE(a.status().message.find(std::to_string(absurd)), std::string::npos) << a.status().message;

    // Through createBuffer the driver or the allocator refuses it; either way the buffer is named.
    VkDeviceSize huge = 1ull << 44;
    Result<Buffer> buffer = createBuffer(vk(), {huge, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal, "huge grid"});
    ASSERT_FALSE(buffer.ok());
    EXPECT_EQ(buffer.status().code, ErrorCode::OutOfDeviceMemory) << buffer.status().describe();
    EXPECT_NE(buffer.status().message.find("huge grid"), std::string::npos) << buffer.status().message;
    EXPECT_NE(buffer.status().message.find(std::to_string(huge)), std::string::npos) << buffer.status().message;
}

TEST_F(MemoryTest, BuffersAndImagesNeverShareAGranularityPage) {
    Result<Buffer> buffer = createBuffer(vk(), {1000, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal, "linear"});
    Result<Image> image = createImage(vk(), {64, 64, VK_FORMAT_D32_SFLOAT,
                                             VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 2, "optimal"});
    ASSERT_TRUE(buffer.ok()) << buffer.status().describe();
    ASSERT_TRUE(image.ok()) << image.status().describe();
    EXPECT_NE(image->view, VK_NULL_HANDLE);
    EXPECT_EQ(image->layers, 2u);
    VkDeviceSize page = vk().properties.limits.bufferImageGranularity;
    if (buffer->memory == image->allocation.memory) {
        VkDeviceSize bufferLast = (buffer->offset + buffer->size - 1) / page;
        VkDeviceSize imageFirst = image->allocation.offset / page;
        VkDeviceSize imageLast = (image->allocation.offset + image->allocation.size - 1) / page;
        VkDeviceSize bufferFirst = buffer->offset / page;
        EXPECT_TRUE(bufferLast < imageFirst || imageLast < bufferFirst);
    }
    destroyImage(vk(), image.value());
    destroyBuffer(vk(), buffer.value());
}

TEST_F(MemoryTest, UploadThenReadBackRoundTripsThroughDeviceLocalMemory) {
    const uint32_t count = 10007;  // not a multiple of anything convenient
    std::vector<uint32_t> in(count), out(count, 0);
    std::iota(in.begin(), in.end(), 12345u);
    Result<Buffer> buffer = createBuffer(vk(), {count * sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                MemoryUsage::DeviceLocal, "round trip"});
    ASSERT_TRUE(buffer.ok()) << buffer.status().describe();
    ASSERT_TRUE(uploadBuffer(vk(), buffer.value(), in.data(), count * sizeof(uint32_t)).ok());
    Status read = readBuffer(vk(), buffer.value(), out.data(), count * sizeof(uint32_t));
    ASSERT_TRUE(read.ok()) << read.describe();
    EXPECT_EQ(in, out);
    // A partial read at an offset.
    uint32_t middle[3] = {};
    ASSERT_TRUE(readBuffer(vk(), buffer.value(), middle, sizeof(middle), 500 * sizeof(uint32_t)).ok());
    EXPECT_EQ(middle[0], in[500]);
    EXPECT_EQ(middle[2], in[502]);
    // Out-of-range access is an error, not a crash.
    Status tooFar = readBuffer(vk(), buffer.value(), middle, sizeof(middle), count * sizeof(uint32_t));
    EXPECT_EQ(tooFar.code, ErrorCode::InvalidArgument);
    destroyBuffer(vk(), buffer.value());
}

TEST_F(MemoryTest, HostVisibleBufferIsMappedAndUploadIsAMemcpy) {
    Result<Buffer> buffer = createBuffer(vk(), {256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, MemoryUsage::Upload, "constants"});
    ASSERT_TRUE(buffer.ok()) << buffer.status().describe();
    ASSERT_NE(buffer->data, nullptr);
    float value = 3.5f;
    ASSERT_TRUE(uploadBuffer(vk(), buffer.value(), &value, sizeof(value), 16).ok());
    EXPECT_EQ(static_cast<float*>(buffer->data)[4], 3.5f);
    float back = 0;
    ASSERT_TRUE(readBuffer(vk(), buffer.value(), &back, sizeof(back), 16).ok());
    EXPECT_EQ(back, 3.5f);
    destroyBuffer(vk(), buffer.value());
}

}  // namespace
}  // namespace vkc
