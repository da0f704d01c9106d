// A copy of a depth-stencil image's stencil aspect into a buffer (1 byte per texel, rows tightly
// packed), for the methods that read their stencil as data: ldi's per-pixel layer counts (paper 2,
// §4) and stencil's counts per view when the harness keeps its images (paper 1, 4.1).
// Reads: the image (transfer source). Writes: the buffer from byte `offset` on.
#pragma once

#include "passes/graph/graph.h"

namespace vkc {

// Copies the top-left `extent` of `image`'s stencil into `buffer` at `offset` (a multiple of 4) in
// pass `name`; returns the buffer's new version.
BufferHandle addStencilCopyPass(Graph& graph, const char* name, ImageHandle image, BufferHandle buffer,
                                VkDeviceSize offset, VkExtent2D extent);

}  // namespace vkc
