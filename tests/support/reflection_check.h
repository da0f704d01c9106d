// Checks a PipelineLayoutDesc against what a SPIR-V module declares (via SPIRV-Cross reflection,
// which only tests link): every descriptor the shader uses must be in the desc at the same
// set/binding with the same type and count, and the push-constant block must have the desc's size.
#pragma once

#include "vk/pipeline.h"

#include <span>

namespace vkc::test {

// InvalidArgument listing every mismatch ("set 0 binding 1: shader has storage buffer, desc has
// uniform buffer"), or success.
Status checkPipelineLayout(std::span<const uint32_t> spirv, const PipelineLayoutDesc& desc, const char* name);

}  // namespace vkc::test
