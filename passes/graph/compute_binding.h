// What a compute pass records before its dispatch: its pipeline, its one descriptor set and its
// push constants, if any.
#pragma once

#include "passes/graph/graph.h"
#include "vk/pipeline.h"

#include <volk.h>

namespace vkc {

inline void bindCompute(VkCommandBuffer cmd, const PassResources& r, const Pipeline& pipeline, VkDescriptorSet set) {
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
}

template <class Push>
void bindCompute(VkCommandBuffer cmd, const PassResources& r, const Pipeline& pipeline, VkDescriptorSet set,
                 const Push& push) {
    bindCompute(cmd, r, pipeline, set);
    r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
}

}  // namespace vkc
