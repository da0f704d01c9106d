// Render graph declarations: resources, passes and their accesses (see graph.h). Declaration
// never fails loudly; the first mistake (stale or invalid handle, a kind that does not fit the
// resource) is kept and returned by compile(), so a method can add all its passes and check once.
// Also the lookups record callbacks use and the timestamp-to-pass-name mapping.
#include "passes/graph/graph.h"

#include <cassert>
#include <utility>

namespace vkc {

BufferHandle Graph::createBuffer(std::string name, const GraphBufferDesc& desc) {
    BufferResource resource;
    resource.name = std::move(name);
    resource.desc = desc;
    if (desc.size == 0) fail("transient buffer '" + resource.name + "' has size 0");
    buffers_.push_back(std::move(resource));
    compiled_ = false;
    return BufferHandle{uint32_t(buffers_.size() - 1), 0};
}

ImageHandle Graph::createImage(std::string name, const GraphImageDesc& desc) {
    ImageResource resource;
    resource.name = std::move(name);
    resource.desc = desc;
    if (desc.width == 0 || desc.height == 0 || desc.layers == 0 || desc.mipLevels == 0 ||
        desc.format == VK_FORMAT_UNDEFINED)
        fail("transient image '" + resource.name + "' needs a format and a non-zero extent, layer and mip count");
    images_.push_back(std::move(resource));
    compiled_ = false;
    return ImageHandle{uint32_t(images_.size() - 1), 0};
}

BufferHandle Graph::persistentBuffer(std::string name, const GraphBufferDesc& desc) {
    BufferHandle handle = createBuffer(std::move(name), desc);
    buffers_[handle.index].persistent = true;
    return handle;
}

BufferHandle Graph::importBuffer(std::string name, const ImportedBuffer& imported) {
    BufferResource resource;
    resource.name = std::move(name);
    resource.imported = true;
    resource.import = imported;
    resource.buffer = imported.buffer;
    if (imported.buffer == VK_NULL_HANDLE) fail("imported buffer '" + resource.name + "' is VK_NULL_HANDLE");
    buffers_.push_back(std::move(resource));
    compiled_ = false;
    return BufferHandle{uint32_t(buffers_.size() - 1), 0};
}

ImageHandle Graph::importImage(std::string name, const ImportedImage& imported) {
    ImageResource resource;
    resource.name = std::move(name);
    resource.imported = true;
    resource.import = imported;
    resource.desc = imported.desc;
    resource.object = GraphImage{imported.image, imported.view};
    if (imported.image == VK_NULL_HANDLE) fail("imported image '" + resource.name + "' is VK_NULL_HANDLE");
    if (imported.final && imported.final->layout == VK_IMAGE_LAYOUT_UNDEFINED)
        fail("imported image '" + resource.name + "' has final layout UNDEFINED, which a barrier cannot target");
    images_.push_back(std::move(resource));
    compiled_ = false;
    return ImageHandle{uint32_t(images_.size() - 1), 0};
}

PassBuilder Graph::addPass(std::string name) {
    Pass pass;
    pass.name = std::move(name);
    passes_.push_back(std::move(pass));
    compiled_ = false;
    return PassBuilder(*this, uint32_t(passes_.size() - 1));
}

void Graph::fail(std::string message) {
    if (declarationError_.ok()) declarationError_ = makeError(ErrorCode::InvalidArgument, std::move(message));
}

const std::string& Graph::resourceName(bool isImage, uint32_t index) const {
    return isImage ? images_[index].name : buffers_[index].name;
}

std::string Graph::describeResource(bool isImage, uint32_t index) const {
    return std::string(isImage ? "image '" : "buffer '") + resourceName(isImage, index) + "'";
}

namespace {

// Layout for one pass that touches an image in two ways. Sampling a depth buffer while testing
// against it is legal in DEPTH_STENCIL_READ_ONLY_OPTIMAL; any other mix falls back to GENERAL,
// which every usage accepts.
VkImageLayout mergeLayouts(VkImageLayout a, VkImageLayout b) {
    if (a == b || b == VK_IMAGE_LAYOUT_UNDEFINED) return a;
    if (a == VK_IMAGE_LAYOUT_UNDEFINED) return b;
    auto isPair = [&](VkImageLayout x, VkImageLayout y) { return (a == x && b == y) || (a == y && b == x); };
    if (isPair(VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL))
        return VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
    return VK_IMAGE_LAYOUT_GENERAL;
}

}  // namespace

// Returns the version the pass leaves the resource at (the new one for writes).
uint32_t Graph::declare(uint32_t passIndex, bool isImage, uint32_t index, uint32_t version, Access kind,
                        bool asWrite, bool contentsUnused) {
    Pass& pass = passes_[passIndex];
    compiled_ = false;
    const AccessInfo& info = accessInfo(kind);
    const size_t count = isImage ? images_.size() : buffers_.size();
    if (index >= count) {
        fail("pass '" + pass.name + "' uses an invalid " + (isImage ? "image" : "buffer") + " handle");
        return version;
    }
    const std::string what = describeResource(isImage, index);
    if (isImage ? !info.forImages : !info.forBuffers) {
        fail("pass '" + pass.name + "' declares " + info.name + " on " + what + ", which that kind cannot apply to");
        return version;
    }
    if (asWrite != info.isWrite) {
        fail("pass '" + pass.name + "' declares " + info.name + " on " + what + " with " +
             (asWrite ? "write(); use read()" : "read(); use write(), it produces a new version"));
        return version;
    }

    uint32_t& current = isImage ? images_[index].version : buffers_[index].version;
    PassAccess* merged = nullptr;
    for (PassAccess& access : pass.accesses)
        if (access.isImage == isImage && access.resource == index) merged = &access;

    // Within one pass both the version it consumes and the one it produces name the same use.
    const bool known = merged ? (version == merged->inputVersion || version == merged->outputVersion)
                              : version == current;
    if (!known) {
        fail("pass '" + pass.name + "' uses stale version " + std::to_string(version) + " of " + what +
             " (current version " + std::to_string(current) + "); use the handle the last write returned");
        return version;
    }
    if (!merged) {
        pass.accesses.push_back(PassAccess{});
        merged = &pass.accesses.back();
        merged->isImage = isImage;
        merged->resource = index;
        merged->inputVersion = merged->outputVersion = current;
    }
    if (info.isWrite && !merged->isWrite) merged->outputVersion = ++current;
    merged->kinds |= 1u << uint32_t(kind);
    merged->stages |= info.stages;
    merged->access |= info.access;
    merged->layout = isImage ? mergeLayouts(merged->layout, info.layout) : VK_IMAGE_LAYOUT_UNDEFINED;
    // Reading contents only matters for what existed before the pass, not what it wrote itself.
    if (info.readsContents && !merged->isWrite && !contentsUnused) merged->readsContents = true;
    merged->isWrite |= info.isWrite;
    return merged->outputVersion;
}

BufferHandle PassBuilder::read(BufferHandle handle, Access kind) {
    return BufferHandle{handle.index, graph_->declare(pass_, false, handle.index, handle.version, kind, false)};
}
ImageHandle PassBuilder::read(ImageHandle handle, Access kind) {
    return ImageHandle{handle.index, graph_->declare(pass_, true, handle.index, handle.version, kind, false)};
}
ImageHandle PassBuilder::bind(ImageHandle handle, Access kind) {
    return ImageHandle{handle.index, graph_->declare(pass_, true, handle.index, handle.version, kind, false, true)};
}
BufferHandle PassBuilder::write(BufferHandle handle, Access kind) {
    return BufferHandle{handle.index, graph_->declare(pass_, false, handle.index, handle.version, kind, true)};
}
ImageHandle PassBuilder::write(ImageHandle handle, Access kind) {
    return ImageHandle{handle.index, graph_->declare(pass_, true, handle.index, handle.version, kind, true)};
}
void PassBuilder::setRecord(PassRecordFn record) { graph_->passes_[pass_].record = std::move(record); }

VkBuffer PassResources::buffer(BufferHandle handle) const {
    assert(handle.index < graph_->buffers_.size());
    return graph_->buffers_[handle.index].buffer;
}
VkDeviceSize PassResources::bufferOffset(BufferHandle handle) const {
    assert(handle.index < graph_->buffers_.size());
    const auto& resource = graph_->buffers_[handle.index];
    return resource.imported ? resource.import.offset : 0;
}
VkDeviceSize PassResources::bufferSize(BufferHandle handle) const { return graph_->bufferSize(handle); }
VkImage PassResources::image(ImageHandle handle) const {
    assert(handle.index < graph_->images_.size());
    return graph_->images_[handle.index].object.image;
}
VkImageView PassResources::imageView(ImageHandle handle) const {
    assert(handle.index < graph_->images_.size());
    return graph_->images_[handle.index].object.view;
}
const GraphImageDesc& PassResources::imageDesc(ImageHandle handle) const {
    assert(handle.index < graph_->images_.size());
    return graph_->images_[handle.index].desc;
}

VkBuffer Graph::buffer(BufferHandle handle) const {
    assert(handle.index < buffers_.size());
    return buffers_[handle.index].buffer;
}
VkImageView Graph::imageView(ImageHandle handle) const {
    assert(handle.index < images_.size());
    return images_[handle.index].object.view;
}
bool Graph::created(BufferHandle handle) const {
    assert(handle.index < buffers_.size());
    return buffers_[handle.index].created;
}
void* Graph::mapped(BufferHandle handle) const {
    assert(handle.index < buffers_.size());
    return buffers_[handle.index].mapped;
}

VkDeviceSize Graph::bufferSize(BufferHandle handle) const {
    assert(handle.index < buffers_.size());
    const BufferResource& resource = buffers_[handle.index];
    return resource.imported ? resource.import.size : resource.desc.size;
}

BufferHandle Graph::findBuffer(const std::string& name) const {
    for (uint32_t i = 0; i < buffers_.size(); ++i)
        if (buffers_[i].name == name) return BufferHandle{i, buffers_[i].version};
    return BufferHandle{};
}

VkBufferUsageFlags Graph::bufferUsage(BufferHandle handle) const {
    assert(handle.index < buffers_.size());
    return buffers_[handle.index].usage;
}
VkImageUsageFlags Graph::imageUsage(ImageHandle handle) const {
    assert(handle.index < images_.size());
    return images_[handle.index].usage;
}

std::vector<std::string> Graph::passTimestampNames() const {
    std::vector<std::string> names;
    names.reserve(passes_.size());
    for (const Pass& pass : passes_) names.push_back(pass.name);
    return names;
}

std::vector<PassTiming> Graph::passTimings(std::span<const uint64_t> ticks, float timestampPeriodNs,
                                           uint32_t validBits) const {
    const uint64_t mask = validBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << validBits) - 1;
    std::vector<PassTiming> timings;
    for (size_t i = 0; i < passes_.size() && 2 * i + 1 < ticks.size(); ++i) {
        // Masked difference, so a counter that wrapped between start and end still reads right.
        const uint64_t elapsed = (ticks[2 * i + 1] - ticks[2 * i]) & mask;
        timings.push_back(PassTiming{passes_[i].name, double(elapsed) * double(timestampPeriodNs) * 1e-6});
    }
    return timings;
}

}  // namespace vkc
