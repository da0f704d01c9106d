// How a method runs its render graph on a VulkanContext: the ExecuteContext with the device
// table, debug-utils labels (when enabled) and a timestamp query pool.
#pragma once

#include "passes/graph.h"
#include "vk/buffer.h"
#include "vk/image.h"
#include "vk/context.h"
#include "vk/query_pool.h"
#include "vk/readback_ring.h"

#include <map>
#include <span>
#include <string>
#include <vector>

namespace vkc {

ExecuteContext graphExecuteContext(const VulkanContext& ctx, const QueryPool& timestamps);

// Per-pass GPU milliseconds by pass name, from `timestamps` (non-blocking: NotReady while the
// queries are unavailable).
Status readPassTimings(const VulkanContext& ctx, const Graph& graph, const QueryPool& timestamps,
                       std::map<std::string, double>& out);

// A buffer that lives across frames, imported with the state its previous frame's last use left it
// in, so the graph orders this frame after that one even once the host saw it complete.
BufferHandle importPersistentBuffer(Graph& graph, std::string name, const Buffer& buffer, SyncState lastUse);

// A per-slot image whose contents each frame discards (every pass clears what it reads later):
// imported in the state its previous frame's last use left it in, minus the layout.
ImageHandle importPersistentImage(Graph& graph, std::string name, const Image& image, Access lastUse);

// Mesh vertex buffers (ours or the host's, read in place): any earlier command may have written
// them, so the graph waits for all writes.
std::vector<BufferHandle> importVertexBuffers(Graph& graph, std::span<const VkBuffer> buffers);

// `frame`'s slot of a read-back ring; the graph's final barrier makes the slot host-visible.
BufferHandle importReadbackSlot(Graph& graph, std::string name, const ReadbackRing& ring, uint64_t frame);

}  // namespace vkc
