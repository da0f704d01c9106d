// Access kinds: how a pass touches a resource, and the one table that expands a kind into the
// synchronization2 stage/access masks, the image layout it needs and the usage flags it implies.
// Every barrier the render graph derives and every usage flag it gives a transient comes from
// here, so adding a kind means adding one row to kAccessTable in access_kind.cpp.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

namespace vkc {

enum class Access : uint8_t {
    ComputeRead,               // storage buffer/image read in a compute shader
    ComputeWrite,              // storage buffer/image write in a compute shader (prior contents not read)
    ComputeReadWrite,          // read-modify-write or atomics in a compute shader
    VertexRead,                // vertex or index buffer input of a draw
    VertexShaderRead,          // storage buffer/image read in a vertex shader
    FragmentRead,              // storage buffer/image read in a fragment shader
    FragmentWrite,             // storage buffer/image write in a fragment shader (prior contents not read)
    FragmentReadWrite,         // atomics / read-modify-write in a fragment shader (append counters)
    UniformRead,               // uniform buffer in any graphics or compute shader
    IndirectRead,              // indirect draw/dispatch arguments and indirect counts
    ColorAttachment,           // colour attachment written by rendering (load op clear/don't-care)
    DepthStencilAttachment,    // depth/stencil attachment with depth or stencil writes
    DepthStencilReadOnly,      // depth/stencil attachment tested but not written
    SampledRead,               // sampled image / uniform texel buffer in a fragment or compute shader
    TransferSrc,               // copy/blit source
    TransferDst,               // copy/blit/fill/clear destination
    HostRead,                  // read back by the host after the submission completes
    AccelStructRead,           // acceleration structure traced with ray queries in a compute shader
    AccelStructReadRayTracing, // acceleration structure traced from a ray-tracing pipeline
    RayTracingRead,            // storage buffer read in a ray-tracing pipeline's shaders
    RayTracingWrite,           // storage buffer write in a ray-tracing pipeline's shaders (prior contents not read)
    RayTracingReadWrite,       // read-modify-write or atomics in a ray-tracing pipeline's shaders
    AccelStructBuild,          // acceleration structure storage written by a build
    AccelStructBuildInput,     // vertex/index/instance data read by an acceleration structure build
    AccelStructScratch,        // scratch buffer of an acceleration structure build
};

inline constexpr uint32_t kAccessKindCount = uint32_t(Access::AccelStructScratch) + 1;

struct AccessInfo {
    const char* name;                // "ComputeRead": used by the graph dump and error messages
    VkPipelineStageFlags2 stages;    // where the access happens
    VkAccessFlags2 access;           // what memory access it makes
    VkImageLayout layout;            // layout an image must be in; UNDEFINED for buffer-only kinds
    VkBufferUsageFlags bufferUsage;  // usage a buffer needs for it
    VkImageUsageFlags imageUsage;    // usage an image needs for it
    bool isWrite;                    // produces a new version of the resource
    bool readsContents;              // needs earlier contents (reading a never-written transient is an error)
    bool forBuffers;                 // valid on buffers
    bool forImages;                  // valid on images
};

// The row for `kind`; never null.
const AccessInfo& accessInfo(Access kind);
inline const char* accessName(Access kind) { return accessInfo(kind).name; }

// Stage/access/layout of one use of a resource: how imported resources describe the state the host
// leaves them in before the graph runs and the state the host expects afterwards.
struct SyncState {
    VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 access = VK_ACCESS_2_NONE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;  // ignored for buffers
};

// The state a resource is in right after an access of `kind` (convenience for imports).
SyncState syncStateOf(Access kind);

// Access bits that write memory; the rest of a mask only reads.
VkAccessFlags2 writeAccessBits(VkAccessFlags2 access);

}  // namespace vkc
