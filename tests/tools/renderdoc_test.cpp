// RenderDoc profiling: `--renderdoc-capture` brackets the first frame's GPU work with RenderDoc's
// in-application API, both when the CLI loads RenderDoc itself and when run under renderdoccmd;
// the converted capture must contain the broadphase's and the stencil method's pass labels and the
// resources' debug names. The example renderer's captured frame shows vkcollide's passes among
// its own.
#include "tests/tools/cli_runner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>


namespace vkc {
namespace {

// The capture as RenderDoc's XML, in which debug labels and object names appear verbatim.
std::string convertToXml(const std::filesystem::path& capture) {
    std::filesystem::path xml = capture;
    xml.replace_extension(".xml");
    std::string command = "renderdoccmd convert -f " + capture.string() + " -c xml -o " + xml.string() + " >/dev/null 2>&1";
    if (std::system(command.c_str()) != 0) return {};
    std::ifstream file(xml);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

void expectPassLabelsAndNames(const std::string& xml) {
    ASSERT_FALSE(xml.empty()) << "renderdoccmd convert failed";
    for (const char* label : {"broadphase-clear", "broadphase-bounds", "broadphase-pairs", "broadphase-readback",
                              "stencil-frame-candidates", "stencil-frame-views", "stencil-edges", "stencil-count",
                              "stencil-boolean", "stencil-penetrating", "stencil-compact"})
        EXPECT_NE(xml.find(label), std::string::npos) << "pass label " << label << " missing from the capture";
    for (const char* name : {"broadphase world bounds", "broadphase pairs", "scene vertex page 0", "stencil frame views",
                             "stencil indirect commands"})
        EXPECT_NE(xml.find(name), std::string::npos) << "resource name " << name << " missing from the capture";
}

// The stencil method, GPU-driven: compute (broadphase, frame setup, scans) and raster passes
// (edges, two-sided stencil) drawn indirectly.
const std::string kDetectDemo =
    "detect " + test::sourcePath("tools/scenes/demo.json") + " --method stencil --resolution 128 --frames 1";

TEST(RenderDoc, InApplicationCaptureHasEveryPassLabel) {
    std::filesystem::path capture = test::scratchDirectory() / "inapp.rdc";
    auto run = test::runCli(kDetectDemo + " --renderdoc-capture " + capture.string());
    ASSERT_EQ(run.exitCode, 0) << run.output;
    ASSERT_TRUE(std::filesystem::exists(capture)) << run.output;
    expectPassLabelsAndNames(convertToXml(capture));
}

TEST(RenderDoc, CaptureUnderRenderdoccmd) {
    std::filesystem::path dir = test::scratchDirectory();
    std::filesystem::path capture = dir / "wrapped.rdc";
    std::string command = "renderdoccmd capture -w -c " + (dir / "wrapped").string() + " " + VKC_CLI_PATH + " " +
                          kDetectDemo + " --renderdoc-capture " + capture.string() + " >" + (dir / "log.txt").string() +
                          " 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << "see " << (dir / "log.txt");
    ASSERT_TRUE(std::filesystem::exists(capture));
    expectPassLabelsAndNames(convertToXml(capture));
}

// The example renderer's frame: its own raster and compute work with vkcollide's broadphase and
// aabb-tree passes recorded into the same command buffer, each labelled, its resources named.
TEST(RenderDoc, ExampleFrameShowsVkcollidesPassesInsideTheHostsFrame) {
    std::filesystem::path capture = test::scratchDirectory() / "example.rdc";
    auto run = test::runProgram(std::string(VKC_EXAMPLE_PATH) + " " +
                                test::sourcePath("tests/tools/scenes/example_growing.json") +
                                " --frames 3 --capture-frame 2 --out " + (capture.parent_path() / "png").string() +
                                " --renderdoc-capture " + capture.string());
    ASSERT_EQ(run.exitCode, 0) << run.output;
    const std::string xml = convertToXml(capture);
    ASSERT_FALSE(xml.empty()) << "renderdoccmd convert failed";
    for (const char* label : {"broadphase-bounds", "broadphase-pairs", "aabb-pairs", "aabb-refit", "aabb-traverse",
                              "aabb-readback"})
        EXPECT_NE(xml.find(label), std::string::npos) << "pass label " << label << " missing from the capture";
    for (const char* name : {"broadphase world bounds", "aabb-tree nodes"})
        EXPECT_NE(xml.find(name), std::string::npos) << "resource name " << name << " missing from the capture";
    // The host's own work in the same frame: its deformation dispatch and its render pass.
    EXPECT_NE(xml.find("vkCmdBeginRenderPass"), std::string::npos);
    EXPECT_NE(xml.find("vkCmdCopyImageToBuffer"), std::string::npos);
}

}  // namespace
}  // namespace vkc
