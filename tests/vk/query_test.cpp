// Occlusion queries count fragments of quads drawn with dynamic rendering (analytic pixel
// counts), and non-blocking query reads report NotReady.
#include "tests/support/vulkan_test.h"
#include "vk/commands.h"
#include "vk/image.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"

#include <gtest/gtest.h>

#include "spirv/test_quad.frag.h"
#include "spirv/test_quad.vert.h"

namespace vkc {
namespace {

struct QuadPush {
    float rect[4];  // x0, y0, x1, y1 in NDC
    float depth;
};
static_assert(sizeof(QuadPush) == 20);

constexpr uint32_t kSize = 64;

class QueryTest : public test::VulkanTest {
protected:
    // Renders `draws` into a cleared kSize x kSize color + depth target, one occlusion query each.
    void drawQuads(const GraphicsPipelineDesc& base, std::span<const QuadPush> draws, std::vector<uint64_t>& samples) {
        GraphicsPipelineDesc desc = base;
        desc.vertexSpirv = kSpirv_test_quad_vert;
        desc.fragmentSpirv = kSpirv_test_quad_frag;
        desc.layout = {{}, sizeof(QuadPush)};
        desc.colorFormats = {VK_FORMAT_R8G8B8A8_UNORM};
        desc.name = "quad";
        Result<Pipeline> pipeline = createGraphicsPipeline(vk(), desc);
        ASSERT_TRUE(pipeline.ok()) << pipeline.status().describe();
        Result<Image> color = createImage(vk(), {kSize, kSize, VK_FORMAT_R8G8B8A8_UNORM,
                                                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 1, "quad color"});
        Result<Image> depth = createImage(vk(), {kSize, kSize, desc.depthFormat,
                                                 VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 1, "quad depth"});
        ASSERT_TRUE(color.ok() && depth.ok());
        Result<QueryPool> queries = createQueryPool(vk(), VK_QUERY_TYPE_OCCLUSION, uint32_t(draws.size()), "quad samples");
        ASSERT_TRUE(queries.ok()) << queries.status().describe();

        Status status = submitAndWait(vk(), [&](VkCommandBuffer cmd) {
            resetQueries(vk(), cmd, queries.value());
            VkImageMemoryBarrier2 barriers[2] = {
                imageBarrier(color->image, color->aspect, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                             VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                             VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT),
                imageBarrier(depth->image, depth->aspect, VK_IMAGE_LAYOUT_UNDEFINED,
                             VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
                             VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                             VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT),
            };
            pipelineBarrier(vk(), cmd, {}, barriers);

            VkRenderingAttachmentInfo colorAttachment = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
            colorAttachment.imageView = color->view;
            colorAttachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
            colorAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
            colorAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
            VkRenderingAttachmentInfo depthAttachment = colorAttachment;
            depthAttachment.imageView = depth->view;
            depthAttachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
            depthAttachment.clearValue.depthStencil = {1.0f, 0};
            VkRenderingInfo rendering = {VK_STRUCTURE_TYPE_RENDERING_INFO};
            rendering.renderArea = {{0, 0}, {kSize, kSize}};
            rendering.layerCount = 1;
            rendering.colorAttachmentCount = 1;
            rendering.pColorAttachments = &colorAttachment;
            rendering.pDepthAttachment = &depthAttachment;
            if (formatAspect(desc.depthFormat) & VK_IMAGE_ASPECT_STENCIL_BIT) rendering.pStencilAttachment = &depthAttachment;
            vk().vkd.vkCmdBeginRendering(cmd, &rendering);
            VkViewport viewport = {0, 0, float(kSize), float(kSize), 0, 1};
            VkRect2D scissor = {{0, 0}, {kSize, kSize}};
            vk().vkd.vkCmdSetViewport(cmd, 0, 1, &viewport);
            vk().vkd.vkCmdSetScissor(cmd, 0, 1, &scissor);
            vk().vkd.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline->pipeline);
            for (uint32_t i = 0; i < draws.size(); ++i) {
                vk().vkd.vkCmdPushConstants(cmd, pipeline->layout, pipeline->stages, 0, sizeof(QuadPush), &draws[i]);
                beginOcclusion(vk(), cmd, queries.value(), i);
                vk().vkd.vkCmdDraw(cmd, 6, 1, 0, 0);
                endQuery(vk(), cmd, queries.value(), i);
            }
            vk().vkd.vkCmdEndRendering(cmd);
        });
        ASSERT_TRUE(status.ok()) << status.describe();
        samples.assign(draws.size(), 0);
        Status read = readQueries(vk(), queries.value(), 0, uint32_t(draws.size()), samples, QueryWait::No);
        EXPECT_TRUE(read.ok()) << read.describe();  // the submit was waited on: no NotReady

        destroyQueryPool(vk(), queries.value());
        destroyImage(vk(), depth.value());
        destroyImage(vk(), color.value());
        destroyPipeline(vk(), pipeline.value());
    }
};

TEST_F(QueryTest, OcclusionCountsVisibleFragmentsOfDepthTestedQuads) {
    GraphicsPipelineDesc desc;
    desc.depthTest = true;
    desc.depthWrite = true;
    desc.depthCompare = VK_COMPARE_OP_LESS;
    desc.depthFormat = VK_FORMAT_D32_SFLOAT;
    // The centre half of the target (32 x 32 pixels) in front, then the lower-left quarter
    // (32 x 32) behind it: its 16 x 16 overlap with the first quad is hidden.
    const QuadPush draws[] = {{{-0.5f, -0.5f, 0.5f, 0.5f}, 0.5f}, {{-1.0f, -1.0f, 0.0f, 0.0f}, 0.75f}};
    std::vector<uint64_t> samples;
    drawQuads(desc, draws, samples);
    ASSERT_EQ(samples.size(), 2u);
    EXPECT_EQ(samples[0], 32u * 32u);
    EXPECT_EQ(samples[1], 32u * 32u - 16u * 16u);
}

TEST_F(QueryTest, TwoSidedStencilCountsFrontAndBackFacesInOneDraw) {
    // Front faces increment, back faces decrement (paper 1's counting in one draw); the test
    // then passes only where the count is still zero after the front quad (reference 0, EQUAL).
    GraphicsPipelineDesc desc;
    desc.depthFormat = VK_FORMAT_D32_SFLOAT_S8_UINT;
    desc.stencilFormat = VK_FORMAT_D32_SFLOAT_S8_UINT;
    desc.stencilTest = true;
    desc.frontFace = VK_FRONT_FACE_CLOCKWISE;  // our quads wind clockwise in framebuffer space (y down)
    desc.stencilFront = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_WRAP, VK_STENCIL_OP_KEEP,
                         VK_COMPARE_OP_EQUAL, 0xff, 0xff, 0};
    desc.stencilBack = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_DECREMENT_AND_WRAP, VK_STENCIL_OP_KEEP,
                        VK_COMPARE_OP_ALWAYS, 0xff, 0xff, 0};
    // Quad 0 front-facing: passes EQUAL 0 everywhere, count -> 1.
    // Quad 1 has x0 > x1 so its winding flips: back-facing, ALWAYS passes, count back to 0 in
    // the overlap. Quad 2 front-facing over everything: passes only where the count is 0.
    const QuadPush draws[] = {{{-0.5f, -0.5f, 0.5f, 0.5f}, 0.5f},
                              {{0.0f, -1.0f, -1.0f, 0.0f}, 0.5f},
                              {{-1.0f, -1.0f, 1.0f, 1.0f}, 0.5f}};
    std::vector<uint64_t> samples;
    drawQuads(desc, draws, samples);
    ASSERT_EQ(samples.size(), 3u);
    EXPECT_EQ(samples[0], 32u * 32u);
    EXPECT_EQ(samples[1], 32u * 32u);
    // Count is 1 in quad 0 minus the overlap (32*32 - 16*16), 255 in quad 1 outside quad 0
    // (32*32 - 16*16): both fail EQUAL 0. Everything else (64*64 - 2*768) passes.
    EXPECT_EQ(samples[2], 64u * 64u - 2u * (32u * 32u - 16u * 16u));
}

TEST_F(QueryTest, NonBlockingReadOfUnsubmittedQueriesIsNotReady) {
    Result<QueryPool> queries = createQueryPool(vk(), VK_QUERY_TYPE_OCCLUSION, 4, "never run");
    ASSERT_TRUE(queries.ok());
    vk().vkd.vkResetQueryPool(vk().device, queries->pool, 0, 4);  // hostQueryReset: enabled where the device has it
    uint64_t values[4] = {};
    Status status = readQueries(vk(), queries.value(), 0, 4, values, QueryWait::No);
    EXPECT_EQ(status.code, ErrorCode::NotReady) << status.describe();
    Status tooMany = readQueries(vk(), queries.value(), 2, 4, values, QueryWait::No);
    EXPECT_EQ(tooMany.code, ErrorCode::InvalidArgument);
    destroyQueryPool(vk(), queries.value());
}

TEST(TimestampTest, ConversionHonoursValidBitsAndPeriod) {
    VulkanContext ctx;
    ctx.timestampPeriod = 2.0f;  // ns per tick
    ctx.timestampValidBits = 64;
    EXPECT_DOUBLE_EQ(timestampsToMs(ctx, 1000, 501000), 1.0);
    ctx.timestampValidBits = 36;
    uint64_t wrapAt = 1ull << 36;
    // The counter wrapped between the two writes: still 500 ticks = 1 microsecond.
    EXPECT_DOUBLE_EQ(timestampsToMs(ctx, wrapAt - 250, 250), 0.001);
}

}  // namespace
}  // namespace vkc
