// Block suballocator. bufferImageGranularity is honoured by keeping linear resources (buffers)
// and optimal-tiling images in separate blocks, so neighbours never share a granularity page.
// Host-visible blocks are mapped once for their lifetime; non-coherent memory is suballocated in
// nonCoherentAtomSize units so that flushing one allocation never touches another.
#include "vk/block_allocator.h"

#include "vk/context.h"
#include "vk/debug.h"
#include "vk/memory_type.h"

#include <algorithm>
#include <string>
#include <vector>

namespace vkc {

namespace {

VkDeviceSize alignUp(VkDeviceSize value, VkDeviceSize alignment) {
    return alignment ? (value + alignment - 1) / alignment * alignment : value;
}

struct Range {
    VkDeviceSize offset, size;
};

struct Block {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    void* mapped = nullptr;
    uint32_t memoryType = 0;
    bool linear = true;
    bool dedicated = false;
    std::vector<Range> free;  // sorted by offset, never adjacent
    uint32_t live = 0;
};

struct Record {
    Block* block;
    VkDeviceSize offset, size;  // the range taken, alignment padding excluded
    std::string name;
};

class BlockAllocator final : public Allocator {
public:
    explicit BlockAllocator(VulkanContext& ctx) : ctx_(ctx) {}
    ~BlockAllocator() override;
    Result<Allocation> allocate(const AllocationRequest& request) override;
    void free(const Allocation& allocation) override;

private:
    Result<Block*> newBlock(uint32_t type, VkDeviceSize size, bool linear, bool dedicated, const char* name);
    void releaseBlock(Block* block);

    VulkanContext& ctx_;
    std::vector<std::unique_ptr<Block>> blocks_;
    std::vector<std::unique_ptr<Record>> records_;
};

BlockAllocator::~BlockAllocator() {
    for (const auto& r : records_)
        logMessage(ctx_, LogLevel::Error, "vkcollide: allocation '" + r->name + "' (" + std::to_string(r->size) +
                                              " bytes) was never freed");
    for (const auto& b : blocks_) ctx_.vkd.vkFreeMemory(ctx_.device, b->memory, ctx_.allocationCallbacks);
}

Result<Block*> BlockAllocator::newBlock(uint32_t type, VkDeviceSize size, bool linear, bool dedicated, const char* name) {
    VkMemoryAllocateInfo info = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = size;
    info.memoryTypeIndex = type;
    // Every block can back device-address buffers when the feature is on: one flag, no extra pools.
    VkMemoryAllocateFlagsInfo flags = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    if (ctx_.hasBufferDeviceAddress) info.pNext = &flags;
    auto block = std::make_unique<Block>();
    VkResult result = ctx_.vkd.vkAllocateMemory(ctx_.device, &info, ctx_.allocationCallbacks, &block->memory);
    if (result != VK_SUCCESS)
        return makeError(ErrorCode::OutOfDeviceMemory,
                         std::string("vkAllocateMemory failed for '") + name + "': " + std::to_string(size) +
                             " bytes in memory type " + std::to_string(type),
                         result);
    block->size = size;
    block->memoryType = type;
    block->linear = linear;
    block->dedicated = dedicated;
    block->free.push_back({0, size});
    if (ctx_.memoryProperties.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        result = ctx_.vkd.vkMapMemory(ctx_.device, block->memory, 0, VK_WHOLE_SIZE, 0, &block->mapped);
        if (result != VK_SUCCESS) {
            ctx_.vkd.vkFreeMemory(ctx_.device, block->memory, ctx_.allocationCallbacks);
            return makeError(ErrorCode::OutOfDeviceMemory, std::string("vkMapMemory failed for '") + name + "'", result);
        }
    }
    std::string blockName = dedicated ? std::string(name) + " (dedicated)"
                                      : "vkcollide block " + std::to_string(blocks_.size()) + " type " +
                                            std::to_string(type) + (linear ? " linear" : " optimal");
    setObjectName(ctx_, VK_OBJECT_TYPE_DEVICE_MEMORY, block->memory, blockName.c_str());
    blocks_.push_back(std::move(block));
    return blocks_.back().get();
}

void BlockAllocator::releaseBlock(Block* block) {
    ctx_.vkd.vkFreeMemory(ctx_.device, block->memory, ctx_.allocationCallbacks);
    blocks_.erase(std::find_if(blocks_.begin(), blocks_.end(), [&](const auto& b) { return b.get() == block; }));
}

Result<Allocation> BlockAllocator::allocate(const AllocationRequest& request) {
    const char* name = request.name ? request.name : "unnamed";
    VkDeviceSize size = request.requirements.size;
    uint32_t type = findMemoryType(ctx_.memoryProperties, request.requirements.memoryTypeBits, request.usage);
    if (type == UINT32_MAX)
        return makeError(ErrorCode::Unsupported, std::string("no memory type fits '") + name + "' (type bits " +
                                                     std::to_string(request.requirements.memoryTypeBits) + ")");
    const VkMemoryType& memoryType = ctx_.memoryProperties.memoryTypes[type];
    VkDeviceSize heapSize = ctx_.memoryProperties.memoryHeaps[memoryType.heapIndex].size;
    if (size > heapSize)
        return makeError(ErrorCode::OutOfDeviceMemory, std::string("'") + name + "' needs " + std::to_string(size) +
                                                           " bytes, more than memory heap " +
                                                           std::to_string(memoryType.heapIndex) + " holds (" +
                                                           std::to_string(heapSize) + " bytes)");
    VkDeviceSize alignment = std::max<VkDeviceSize>(request.requirements.alignment, 1);
    bool coherent = memoryType.propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    bool hostVisible = memoryType.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    if (hostVisible && !coherent) {
        alignment = std::max(alignment, ctx_.properties.limits.nonCoherentAtomSize);
        size = alignUp(size, ctx_.properties.limits.nonCoherentAtomSize);
    }

    Block* chosen = nullptr;
    VkDeviceSize offset = 0;
    if (size < kBlockSize / 2) {
        for (const auto& b : blocks_) {
            if (b->dedicated || b->memoryType != type || b->linear != request.linear) continue;
            for (const Range& r : b->free) {
                VkDeviceSize start = alignUp(r.offset, alignment);
                if (start + size <= r.offset + r.size) {
                    chosen = b.get();
                    offset = start;
                    break;
                }
            }
            if (chosen) break;
        }
        if (!chosen) {
            Result<Block*> block = newBlock(type, std::min(kBlockSize, heapSize), request.linear, false, name);
            if (!block) return block.status();
            chosen = block.value();
        }
    } else {
        Result<Block*> block = newBlock(type, size, request.linear, true, name);
        if (!block) return block.status();
        chosen = block.value();
    }

    // Carve [offset, offset + size) out of the free range that holds it.
    auto it = std::find_if(chosen->free.begin(), chosen->free.end(),
                           [&](const Range& r) { return r.offset <= offset && offset + size <= r.offset + r.size; });
    Range before = {it->offset, offset - it->offset};
    Range after = {offset + size, it->offset + it->size - (offset + size)};
    it = chosen->free.erase(it);
    if (after.size) it = chosen->free.insert(it, after);
    if (before.size) chosen->free.insert(it, before);
    chosen->live++;

    auto record = std::make_unique<Record>(Record{chosen, offset, size, name});
    Allocation allocation;
    allocation.memory = chosen->memory;
    allocation.offset = offset;
    allocation.size = request.requirements.size;
    allocation.mapped = chosen->mapped ? static_cast<char*>(chosen->mapped) + offset : nullptr;
    allocation.memoryType = type;
    allocation.coherent = coherent;
    allocation.handle = record.get();
    records_.push_back(std::move(record));
    return allocation;
}

void BlockAllocator::free(const Allocation& allocation) {
    auto it = std::find_if(records_.begin(), records_.end(), [&](const auto& r) { return r.get() == allocation.handle; });
    if (it == records_.end()) return;  // not ours, or freed twice
    Record& record = **it;
    Block* block = record.block;
    Range range = {record.offset, record.size};
    records_.erase(it);

    // Insert in order and merge with the neighbours.
    auto pos = std::lower_bound(block->free.begin(), block->free.end(), range,
                                [](const Range& a, const Range& b) { return a.offset < b.offset; });
    pos = block->free.insert(pos, range);
    if (pos + 1 != block->free.end() && pos->offset + pos->size == (pos + 1)->offset) {
        pos->size += (pos + 1)->size;
        block->free.erase(pos + 1);
    }
    if (pos != block->free.begin() && (pos - 1)->offset + (pos - 1)->size == pos->offset) {
        (pos - 1)->size += pos->size;
        block->free.erase(pos);
    }
    block->live--;
    if (block->live) return;
    // Keep one empty block per pool to avoid allocate/free churn; dedicated memory goes at once.
    bool anotherEmpty = std::any_of(blocks_.begin(), blocks_.end(), [&](const auto& b) {
        return b.get() != block && !b->dedicated && b->live == 0 && b->memoryType == block->memoryType &&
               b->linear == block->linear;
    });
    if (block->dedicated || anotherEmpty) releaseBlock(block);
}

}  // namespace

std::unique_ptr<Allocator> createBlockAllocator(VulkanContext& ctx) { return std::make_unique<BlockAllocator>(ctx); }

}  // namespace vkc
