// The first passes of method `ebpi`'s frame: ebpi-pair-verdicts, the pair selection and
// ebpi-pair-setup (shaders_glsl/ebpi_pair_verdicts.comp, ebpi_pair_setup.comp), the frame's tested pairs and
// every per-pair table the later passes read, from its candidates on the GPU.
// Reads: the candidates' boxes and pair list (the broadphase's layout), the scene's objects
// (EbpiSceneObjectGpu), the pairs' last axes, the parameters. Writes: per slot its objects, trace
// objects, views, ray views, image jobs, volume, crossing and direction pairs; the transient
// edges' pair list; the setup's state and slot table (read back with the results).
#pragma once

#include "passes/graph/graph.h"
#include "passes/shared/pair_selection_passes.h"
#include "shaders_glsl/shared/ebpi_pair_setup.h"
#include "vk/pipeline.h"

#include <utility>
#include <vector>

namespace vkc {

struct EbpiSetupPassInputs {
    const Pipeline* verdictsPipeline = nullptr;  // ebpi_pair_verdicts.comp
    const Pipeline* tablesPipeline = nullptr;    // ebpi_pair_setup.comp
    VkDescriptorSet set = VK_NULL_HANDLE;        // kEbpiSetupPipelineLayout
    // Of the same candidates and slotCount pairs (its capacity and grid limit size the verdicts'
    // grid too); its verdicts are written here.
    PairSelectionInputs selection;

    BufferHandle bounds, candidates, sceneObjects, startAxes, params;  // read
    // Written, sized by the slots (ebpi_pair_setup.h).
    BufferHandle objects, traceObjects, views, rayViews, jobs, volumePairs, crossingPairs, directionPairs,
        traversalPairs, slots;
};

// The written buffers as the later passes read them.
struct EbpiSetupPassOutputs {
    BufferHandle objects, traceObjects, views, rayViews, jobs, volumePairs, crossingPairs, directionPairs,
        traversalPairs, slots;
};

extern const PipelineLayoutDesc kEbpiSetupPipelineLayout;

inline constexpr const char* kEbpiPairVerdictsPassName = "ebpi-pair-verdicts";
inline constexpr const char* kEbpiPairSetupPassName = "ebpi-pair-setup";
// Every pass of the pair selection is named "ebpi-pair-select-<step>" (declarePairSelection).
inline constexpr const char* kEbpiPairSelectPassPrefix = "ebpi-pair-select";

EbpiSetupPassOutputs addEbpiSetupPass(Graph& graph, const EbpiSetupPassInputs& inputs);

// Each binding of kEbpiSetupPipelineLayout with the input it holds, for the caller's descriptor
// writes (the selection's own set: writePairSelectionDescriptors).
std::vector<std::pair<uint32_t, BufferHandle>> ebpiSetupBufferBindings(const EbpiSetupPassInputs& inputs);

}  // namespace vkc
