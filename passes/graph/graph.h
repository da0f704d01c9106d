// The render graph: passes declared in execution order, each listing every resource it touches
// with an access kind; compile() derives synchronization2 barriers and layout transitions from
// those declarations (no device needed, printable with dump()); execute() records the barriers,
// a debug label and a timestamp pair around each pass's record callback into any command buffer,
// and can copy the timestamps into host-visible memory on the GPU after the last pass.
// No reordering, multi-queue, aliasing or subpass merging: passes run exactly as declared.
#pragma once

#include "passes/graph/access_kind.h"
#include "passes/graph/graph_resources.h"
#include "passes/graph/persistent_resources.h"
#include "vkcollide/status.h"

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

struct VolkDeviceTable;

namespace vkc {

class Graph;

// What a pass's record callback uses to turn its handles into Vulkan objects. Any version of a
// handle resolves to the same object (versions only order accesses).
class PassResources {
public:
    VkBuffer buffer(BufferHandle handle) const;
    VkDeviceSize bufferOffset(BufferHandle handle) const;  // bytes; non-zero only for imported sub-ranges
    VkDeviceSize bufferSize(BufferHandle handle) const;    // bytes; VK_WHOLE_SIZE if imported that way
    VkImage image(ImageHandle handle) const;
    VkImageView imageView(ImageHandle handle) const;
    const GraphImageDesc& imageDesc(ImageHandle handle) const;
    // The device table from ExecuteContext: how passes call vkCmdDispatch, vkCmdDraw, ...
    const VolkDeviceTable& device() const { return *device_; }

private:
    friend class Graph;
    PassResources(const Graph& graph, const VolkDeviceTable* device) : graph_(&graph), device_(device) {}
    const Graph* graph_;
    const VolkDeviceTable* device_;
};

// Records one pass's commands. Runs inside execute(), after the pass's barriers.
using PassRecordFn = std::function<void(VkCommandBuffer cmd, const PassResources& resources)>;

// Declares one pass's accesses. Obtained from Graph::addPass; valid while the graph lives.
// A handle that is not the current version of its resource (stale) is a caller bug that
// compile() reports as an InvalidArgument Status naming the pass and resource.
class PassBuilder {
public:
    // Declares a read (isWrite == false kinds); returns the same handle.
    BufferHandle read(BufferHandle handle, Access kind);
    ImageHandle read(ImageHandle handle, Access kind);
    // Declares that the pass's descriptor set names the image, in the layout of the read `kind`,
    // but reads none of its contents (a set shared with later passes that do): synchronised like a
    // read, yet no error when nothing wrote it earlier in the frame.
    ImageHandle bind(ImageHandle handle, Access kind);
    // Declares a write (isWrite == true kinds, including read-modify-write ones); returns the new
    // version, which later passes must use. The handle passed in becomes stale for later passes.
    BufferHandle write(BufferHandle handle, Access kind);
    ImageHandle write(ImageHandle handle, Access kind);
    // The commands of this pass; a pass without one records only its barriers (e.g. a read-back).
    void setRecord(PassRecordFn record);

private:
    friend class Graph;
    PassBuilder(Graph& graph, uint32_t pass) : graph_(&graph), pass_(pass) {}
    Graph* graph_;
    uint32_t pass_;
};

// One derived barrier, for tests, the dump and execute(). Buffer barriers leave layouts UNDEFINED.
struct GraphBarrier {
    bool isImage = false;
    uint32_t resource = 0;  // buffer or image slot (BufferHandle/ImageHandle::index)
    VkPipelineStageFlags2 srcStages = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 srcAccess = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 dstStages = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 dstAccess = VK_ACCESS_2_NONE;
    VkImageLayout oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageLayout newLayout = VK_IMAGE_LAYOUT_UNDEFINED;
};

// How execute() records: device functions, optional debug labels and timestamps.
struct ExecuteContext {
    // Required: vkCmdPipelineBarrier2; with timestampPool also vkCmdResetQueryPool and
    // vkCmdWriteTimestamp2. Never null.
    const VolkDeviceTable* device = nullptr;
    // Optional (VK_EXT_debug_utils): each pass is wrapped in a label named after it. Both or neither.
    PFN_vkCmdBeginDebugUtilsLabelEXT beginLabel = nullptr;
    PFN_vkCmdEndDebugUtilsLabelEXT endLabel = nullptr;
    // Optional: VK_QUERY_TYPE_TIMESTAMP pool; pass i writes queries firstQuery + 2i (start) and
    // firstQuery + 2i + 1 (end), see Graph::timestampQueryCount and passTimestampNames.
    VkQueryPool timestampPool = VK_NULL_HANDLE;
    uint32_t firstQuery = 0;
    // Resets the pass queries with vkCmdResetQueryPool before the first pass; turn off when the
    // caller resets them itself (host reset, or one reset for several graphs).
    bool resetQueries = true;
    // Optional, with timestampPool: a host-visible buffer of timestampQueryCount() uint64_t. After
    // the last pass the GPU copies the pass queries into it (vkCmdCopyQueryPoolResults, 64-bit,
    // query firstQuery at offset 0) and makes them host-readable, so that once the submit's signal
    // arrived the host reads plain memory and never asks the driver. Needs vkCmdCopyQueryPoolResults.
    VkBuffer timestampResults = VK_NULL_HANDLE;
};

// GPU time of one pass, from the timestamp queries.
struct PassTiming {
    std::string name;
    double milliseconds = 0.0;
};

// A method adds its passes to a graph, then the frame compiles and executes it:
//
//   BufferHandle pairs = graph.createBuffer("pairs", GraphBufferDesc{bytes});
//   PassBuilder pass = graph.addPass("broadphase");
//   pass.read(aabbs, Access::ComputeRead);
//   pairs = pass.write(pairs, Access::ComputeWrite);          // later passes use the new version
//   pass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) { ...r.buffer(pairs)... });
//   VKC_TRY(graph.compile(&allocator));
//   VKC_TRY(graph.execute(cmd, executeContext));
//
// Not copyable or movable (builders and callbacks point into it); hold it by unique_ptr to cache.
class Graph {
public:
    Graph() = default;
    Graph(const Graph&) = delete;  // PassBuilders and record callbacks point into it
    Graph& operator=(const Graph&) = delete;

    // Transient resources: created in compile(), contents undefined until a pass writes them (or,
    // for a hostWrite buffer, the host), usage flags derived from every declared access. `name`
    // labels dump and errors, and keys the resource in PersistentResources: compiled with one, the
    // slot's previous object is reused and this frame is ordered after that frame's last access.
    BufferHandle createBuffer(std::string name, const GraphBufferDesc& desc);
    ImageHandle createImage(std::string name, const GraphImageDesc& desc);
    // A buffer whose contents survive from the slot's previous frame (caches such as trees or
    // per-scene topology). Contents are undefined when created() says the object is new.
    BufferHandle persistentBuffer(std::string name, const GraphBufferDesc& desc);
    // Host-owned resources, synchronised from `initial` and left in `final`.
    BufferHandle importBuffer(std::string name, const ImportedBuffer& imported);
    ImageHandle importImage(std::string name, const ImportedImage& imported);

    // Appends a pass; passes execute in the order they are added. `name` is used for the debug
    // label, the timestamp report and the dump.
    PassBuilder addPass(std::string name);

    // Checks the declarations and derives every barrier. With an allocator, also creates the
    // transients (an allocation failure is returned naming the resource); without one (tests,
    // dumps) transients resolve to VK_NULL_HANDLE. May be called again after adding passes.
    Status compile(GraphResourceAllocator* allocator = nullptr);
    // Same, with the resources of the frame slot this graph records for: created resources come
    // from (and their last access goes back to) `slot`, which owns and destroys them.
    Status compile(PersistentResources& slot);
    bool compiled() const { return compiled_; }

    // A created resource after compile(): its object, whether it is new this frame (persistent
    // contents lost), and the mapping of a hostWrite buffer for the host to fill before submit.
    VkBuffer buffer(BufferHandle handle) const;
    VkImageView imageView(ImageHandle handle) const;
    bool created(BufferHandle handle) const;
    void* mapped(BufferHandle handle) const;
    VkDeviceSize bufferSize(BufferHandle handle) const;  // bytes asked for (imports: their range)
    // The latest version of the buffer named `name` (invalid if none): for tests and tools that
    // inspect a frame's resources after it ran.
    BufferHandle findBuffer(const std::string& name) const;

    // Records every pass with its barriers, then the final barriers of imported resources.
    // Returns InvalidArgument when not compiled or the context lacks a required function.
    Status execute(VkCommandBuffer cmd, const ExecuteContext& context) const;

    // Text form of the compiled graph: resources, passes in order with their accesses and
    // barriers, final barriers. Stable across runs and platforms (tests compare it exactly).
    std::string dump() const;

    // Pass names in timestamp order: pass i owns queries firstQuery + 2i and + 2i + 1.
    std::vector<std::string> passTimestampNames() const;
    uint32_t timestampQueryCount() const { return uint32_t(passes_.size()) * 2; }
    // Per-pass GPU times from the raw query results: `ticks` holds timestampQueryCount() values
    // from firstQuery on, `timestampPeriodNs` is VkPhysicalDeviceLimits::timestampPeriod and
    // `validBits` the queue family's timestampValidBits (counters wrap at that width).
    std::vector<PassTiming> passTimings(std::span<const uint64_t> ticks, float timestampPeriodNs,
                                        uint32_t validBits = 64) const;

    // Introspection, valid after compile().
    uint32_t passCount() const { return uint32_t(passes_.size()); }
    const std::string& passName(uint32_t pass) const { return passes_[pass].name; }
    std::span<const GraphBarrier> passBarriers(uint32_t pass) const { return passes_[pass].barriers; }
    std::span<const GraphBarrier> finalBarriers() const { return finalBarriers_; }
    VkBufferUsageFlags bufferUsage(BufferHandle handle) const;  // derived (plus extraUsage for transients)
    VkImageUsageFlags imageUsage(ImageHandle handle) const;
    const std::string& bufferName(BufferHandle handle) const { return buffers_[handle.index].name; }
    const std::string& imageName(ImageHandle handle) const { return images_[handle.index].name; }

private:
    friend class PassBuilder;
    friend class PassResources;

    struct BufferResource {
        std::string name;
        bool imported = false;
        bool persistent = false;    // contents kept across the slot's frames
        GraphBufferDesc desc;            // transient
        ImportedBuffer import;      // imported
        uint32_t version = 0;       // current (latest) version
        VkBuffer buffer = VK_NULL_HANDLE;
        void* mapped = nullptr;     // hostWrite buffers
        bool created = false;       // new object this frame
        VkBufferUsageFlags usage = 0;
    };
    struct ImageResource {
        std::string name;
        bool imported = false;
        GraphImageDesc desc;
        ImportedImage import;
        uint32_t version = 0;
        GraphImage object;
        VkImageUsageFlags usage = 0;
    };
    // All accesses of one pass to one resource, merged.
    struct PassAccess {
        bool isImage = false;
        uint32_t resource = 0;
        uint32_t inputVersion = 0;   // version the pass consumes
        uint32_t outputVersion = 0;  // == inputVersion unless the pass writes
        uint32_t kinds = 0;          // bit per Access kind, for the dump and usage derivation
        VkPipelineStageFlags2 stages = 0;
        VkAccessFlags2 access = 0;
        VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
        bool isWrite = false;
        bool readsContents = false;
    };
    struct Pass {
        std::string name;
        PassRecordFn record;
        std::vector<PassAccess> accesses;  // in order of first declaration
        std::vector<GraphBarrier> barriers;
    };

    uint32_t declare(uint32_t pass, bool isImage, uint32_t index, uint32_t version, Access kind, bool asWrite,
                     bool contentsUnused = false);
    Status compileWith(GraphResourceAllocator* allocator, PersistentResources* slot);
    Status createResources(GraphResourceAllocator* allocator, PersistentResources* slot,
                           const std::vector<bool>& bufferUsed, const std::vector<bool>& imageUsed);
    void fail(std::string message);
    const std::string& resourceName(bool isImage, uint32_t index) const;
    std::string describeResource(bool isImage, uint32_t index) const;

    std::vector<BufferResource> buffers_;
    std::vector<ImageResource> images_;
    std::vector<Pass> passes_;
    std::vector<GraphBarrier> finalBarriers_;
    Status declarationError_;  // first error found while declaring; compile() returns it
    bool compiled_ = false;
};

static_assert(kAccessKindCount <= 32, "PassAccess::kinds is a 32-bit set");

}  // namespace vkc
