// Read-back layouts and the one read-back pass; see readback_layout.h.
#include "passes/graph/readback_layout.h"

#include <volk.h>

namespace vkc {

uint32_t ReadbackLayout::add(VkDeviceSize maxBytes) {
    regions_.push_back({(slotBytes() + 15) & ~VkDeviceSize(15), maxBytes});
    return uint32_t(regions_.size() - 1);
}

VkDeviceSize ReadbackLayout::slotBytes() const {
    return regions_.empty() ? 0 : regions_.back().offset + regions_.back().maxBytes;
}

void addReadbackPass(Graph& graph, const char* name, const ReadbackLayout& layout, BufferHandle slot,
                     std::span<const ReadbackCopy> copies, std::span<const ReadbackQueries> queries) {
    struct Copy {
        BufferHandle source;
        VkDeviceSize slotOffset;
        VkDeviceSize bytes;
    };
    PassBuilder readback = graph.addPass(name);
    std::vector<Copy> recorded;
    for (const ReadbackCopy& copy : copies) {
        assert(copy.bytes <= layout.maxBytes(copy.region));
        if (copy.bytes == 0) continue;
        readback.read(copy.source, Access::TransferSrc);
        recorded.push_back({copy.source, layout.offset(copy.region), copy.bytes});
    }
    struct QueryCopy {
        ReadbackQueries queries;
        VkDeviceSize slotOffset;
    };
    std::vector<QueryCopy> queryCopies;
    for (const ReadbackQueries& range : queries) {
        assert(range.count * sizeof(uint64_t) <= layout.maxBytes(range.region));
        if (range.count != 0) queryCopies.push_back({range, layout.offset(range.region)});
    }
    slot = readback.write(slot, Access::TransferDst);
    readback.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        for (const Copy& copy : recorded) {
            const VkBufferCopy region = {r.bufferOffset(copy.source), r.bufferOffset(slot) + copy.slotOffset, copy.bytes};
            r.device().vkCmdCopyBuffer(cmd, r.buffer(copy.source), r.buffer(slot), 1, &region);
        }
        // A transfer write like the copies above (the slot's TransferDst access); WAIT waits on the GPU.
        for (const QueryCopy& copy : queryCopies)
            r.device().vkCmdCopyQueryPoolResults(cmd, copy.queries.pool, copy.queries.first, copy.queries.count,
                                                 r.buffer(slot), r.bufferOffset(slot) + copy.slotOffset,
                                                 sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    });
}

}  // namespace vkc
