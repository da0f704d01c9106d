// One frame slot's graph-created resources; see persistent_resources.h.
#include "passes/graph/persistent_resources.h"

namespace vkc {
namespace {

bool sameImage(const GraphImageDesc& a, const GraphImageDesc& b) {
    return a.width == b.width && a.height == b.height && a.format == b.format && a.layers == b.layers &&
           a.mipLevels == b.mipLevels && a.aspect == b.aspect && a.samples == b.samples;
}

}  // namespace

PersistentResources::PersistentResources(GraphResourceAllocator& allocator, uint32_t slotIndex)
    : allocator_(allocator), suffix_(" [frame slot " + std::to_string(slotIndex) + "]") {}

PersistentResources::~PersistentResources() {
    for (auto& [name, entry] : buffers_) allocator_.destroyBuffer(entry.buffer);
    for (auto& [name, entry] : images_) allocator_.destroyImage(entry.image);
    if (timestamps_.pool != VK_NULL_HANDLE) allocator_.destroyTimestamps(timestamps_);
}

Result<PersistentResources::BufferUse> PersistentResources::buffer(const std::string& name, const GraphBufferDesc& desc,
                                                                   VkBufferUsageFlags usage) {
    BufferEntry& entry = buffers_[name];
    const bool fits = entry.buffer.buffer != VK_NULL_HANDLE && entry.desc.size >= desc.size &&
                      entry.desc.hostWrite == desc.hostWrite && (entry.usage & usage) == usage;
    if (fits) return BufferUse{entry.buffer, false};
    // The slot's previous frame has completed, so its object may go. Usage only grows, so frames
    // that skip a pass do not recreate the buffer back and forth.
    if (entry.buffer.buffer != VK_NULL_HANDLE) allocator_.destroyBuffer(entry.buffer);
    const VkBufferUsageFlags grown = entry.usage | usage;
    entry = BufferEntry{};
    Result<GraphBuffer> created = allocator_.createBuffer(named(name).c_str(), desc, grown);
    if (!created) {
        buffers_.erase(name);
        return created.status();
    }
    entry.buffer = created.value();
    entry.desc = desc;
    entry.usage = grown;
    return BufferUse{entry.buffer, true};
}

Result<PersistentResources::ImageUse> PersistentResources::image(const std::string& name, const GraphImageDesc& desc,
                                                                 VkImageUsageFlags usage) {
    ImageEntry& entry = images_[name];
    const bool fits = entry.image.image != VK_NULL_HANDLE && sameImage(entry.desc, desc) && (entry.usage & usage) == usage;
    if (fits) return ImageUse{entry.image, false};
    if (entry.image.image != VK_NULL_HANDLE) allocator_.destroyImage(entry.image);
    const VkImageUsageFlags grown = entry.usage | usage;
    entry = ImageEntry{};
    Result<GraphImage> created = allocator_.createImage(named(name).c_str(), desc, grown);
    if (!created) {
        images_.erase(name);
        return created.status();
    }
    entry.image = created.value();
    entry.desc = desc;
    entry.usage = grown;
    return ImageUse{entry.image, true};
}

SyncState PersistentResources::lastUse(bool isImage, const std::string& name) const {
    if (isImage) {
        auto it = images_.find(name);
        return it == images_.end() ? SyncState{} : it->second.lastUse;
    }
    auto it = buffers_.find(name);
    return it == buffers_.end() ? SyncState{} : it->second.lastUse;
}

void PersistentResources::setLastUse(bool isImage, const std::string& name, const SyncState& state) {
    if (isImage) {
        auto it = images_.find(name);
        if (it != images_.end()) it->second.lastUse = state;
    } else {
        auto it = buffers_.find(name);
        if (it != buffers_.end()) it->second.lastUse = state;
    }
}

Result<GraphTimestamps> PersistentResources::timestamps(uint32_t queries) {
    if (timestamps_.pool != VK_NULL_HANDLE && timestamps_.queries >= queries) return timestamps_;
    if (timestamps_.pool != VK_NULL_HANDLE) allocator_.destroyTimestamps(timestamps_);
    timestamps_ = GraphTimestamps{};
    Result<GraphTimestamps> created = allocator_.createTimestamps(named("timestamps").c_str(), queries);
    if (!created) return created.status();
    timestamps_ = created.value();
    timestamps_.queries = queries;
    return timestamps_;
}

}  // namespace vkc
