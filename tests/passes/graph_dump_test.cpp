// Tests of Graph::dump (passes/graph/graph.h): the text of a small compiled graph, compared exactly so
// any change to barriers, versions or formatting shows up here.
#include "passes/graph/graph.h"

#include <gtest/gtest.h>

#include <string>

namespace vkc {
namespace {

TEST(GraphDump, SmallGraphMatchesExpectedText) {
    Graph graph;
    ImportedBuffer vertices;
    vertices.buffer = reinterpret_cast<VkBuffer>(uintptr_t(0x10));
    vertices.initial = syncStateOf(Access::VertexRead);
    vertices.final = syncStateOf(Access::TransferDst);  // the host re-uploads next frame
    BufferHandle mesh = graph.importBuffer("vertices", vertices);
    BufferHandle pairs = graph.createBuffer("pairs", GraphBufferDesc{256});
    GraphImageDesc depthDesc;
    depthDesc.width = 8;
    depthDesc.height = 4;
    depthDesc.format = VK_FORMAT_D32_SFLOAT;
    ImageHandle depth = graph.createImage("depth", depthDesc);

    PassBuilder broadphase = graph.addPass("broadphase");
    broadphase.read(mesh, Access::ComputeRead);
    pairs = broadphase.write(pairs, Access::ComputeWrite);

    PassBuilder render = graph.addPass("render");
    render.read(pairs, Access::IndirectRead);
    render.read(mesh, Access::VertexRead);
    depth = render.write(depth, Access::DepthStencilAttachment);

    graph.addPass("resolve").read(depth, Access::SampledRead);
    ASSERT_TRUE(graph.compile().ok());

    const std::string expected =
        "graph: 2 buffers, 1 images, 3 passes\n"
        "buffer 0 'vertices' imported usage=STORAGE_BUFFER|INDEX_BUFFER|VERTEX_BUFFER\n"
        "buffer 1 'pairs' transient size=256 usage=STORAGE_BUFFER|INDIRECT_BUFFER\n"
        "image 0 'depth' transient 8x4x1 format=126 usage=SAMPLED|DEPTH_STENCIL_ATTACHMENT\n"
        "pass 0 'broadphase'\n"
        "  read buffer 'vertices' v0 ComputeRead\n"
        "  write buffer 'pairs' v0->v1 ComputeWrite\n"
        "pass 1 'render'\n"
        "  read buffer 'pairs' v1 IndirectRead\n"
        "  read buffer 'vertices' v0 VertexRead\n"
        "  write image 'depth' v0->v1 DepthStencilAttachment DEPTH_STENCIL_ATTACHMENT_OPTIMAL\n"
        "  barrier buffer 'pairs' COMPUTE_SHADER/SHADER_STORAGE_WRITE -> DRAW_INDIRECT/INDIRECT_COMMAND_READ\n"
        "  barrier image 'depth' NONE/NONE -> EARLY_FRAGMENT_TESTS|LATE_FRAGMENT_TESTS/DEPTH_STENCIL_ATTACHMENT_READ|DEPTH_STENCIL_ATTACHMENT_WRITE layout UNDEFINED -> DEPTH_STENCIL_ATTACHMENT_OPTIMAL\n"
        "pass 2 'resolve'\n"
        "  read image 'depth' v1 SampledRead SHADER_READ_ONLY_OPTIMAL\n"
        "  barrier image 'depth' EARLY_FRAGMENT_TESTS|LATE_FRAGMENT_TESTS/DEPTH_STENCIL_ATTACHMENT_WRITE -> FRAGMENT_SHADER|COMPUTE_SHADER/SHADER_SAMPLED_READ layout DEPTH_STENCIL_ATTACHMENT_OPTIMAL -> SHADER_READ_ONLY_OPTIMAL\n"
        "final\n"
        "  barrier buffer 'vertices' COMPUTE_SHADER|INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT/NONE -> ALL_TRANSFER/TRANSFER_WRITE\n";
    EXPECT_EQ(graph.dump(), expected);
}

TEST(GraphDump, MarksAnUncompiledGraph) {
    Graph graph;
    graph.addPass("p");
    EXPECT_EQ(graph.dump(), "graph: 0 buffers, 0 images, 1 passes (not compiled)\npass 0 'p'\nfinal\n");
}

}  // namespace
}  // namespace vkc
