// `vkcollide check-mesh` on the shared meshes: every closed mesh passes (the two the meshes README
// marks "caution" for self-intersections exit 3 and say so), and every file in open-or-broken/
// fails naming its problem.
#include "tests/tools/cli_runner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace vkc {
namespace {

std::string meshPath(const std::string& name) {
    const char* shared = std::getenv("VKC_SHARED_DIR");
    return std::string(shared ? shared : "") + "/meshes/" + name;
}

TEST(CliCheckMesh, EveryCleanClosedSharedMeshPasses) {
    std::string files;
    for (const char* name : {"cube.stl", "sphere_ico4.stl", "pinion_gear.off", "bunny_npm.obj", "couplingdown.off",
                             "ballA.off", "ballB.off", "knot.off", "hull-body.obj", "hull-mask.obj", "torus.stl",
                             "fandisk.obj", "rocker-arm.obj", "armadillo_29k.obj", "bunny_60k.obj",
                             "armadillo_86k_sub2.ply"})
        files += " " + meshPath(name);
    auto run = test::runCli("check-mesh" + files);
    EXPECT_EQ(run.exitCode, 0) << run.output;
    EXPECT_EQ(run.output.find("caution"), std::string::npos) << run.output;
}

TEST(CliCheckMesh, SelfIntersectingClosedMeshesAreCaution) {
    // README: wingnut 3 and the welded dragon 206 self-intersecting pairs ("caution").
    for (auto [name, pairs] : {std::pair{"wingnut.obj", "3 pairs"}, std::pair{"dragon_vrip_welded.ply", "206 pairs"}}) {
        auto run = test::runCli("check-mesh " + meshPath(name));
        EXPECT_EQ(run.exitCode, 3) << run.output;
        EXPECT_NE(run.output.find(std::string("self-intersecting, ") + pairs), std::string::npos) << run.output;
    }
}

TEST(CliCheckMesh, EveryOpenOrBrokenMeshFailsNamingItsProblem) {
    struct Case { const char* file; int exitCode; std::vector<const char*> mentions; };
    const Case cases[] = {
        {"bunny_stanford_original_holes.obj", 1, {"open: 223 boundary edges", "1113 unreferenced vertices"}},
        {"fcl_env.obj", 1, {"soup", "open"}},
        {"fcl_rob.obj", 1, {"soup"}},
        {"teapot_open.obj", 1, {"open", "manifold"}},
        {"self_intersectA.obj", 3, {"self-intersecting, 338 pairs"}},
    };
    for (const Case& c : cases) {
        auto run = test::runCli("check-mesh " + meshPath(std::string("open-or-broken/") + c.file));
        EXPECT_EQ(run.exitCode, c.exitCode) << c.file << ":\n" << run.output;
        for (const char* mention : c.mentions)
            EXPECT_NE(run.output.find(mention), std::string::npos) << c.file << " should mention \"" << mention
                                                                   << "\":\n" << run.output;
    }
}

// The damaged files (../shared/bad-input/): each is "cannot load" with the reader's
// one-line reason and exit 1; before the strict readers, the 5-vertex STL facet passed as
// "ok, closed solid" and the PLY and glTF files crashed or hung.
TEST(CliCheckMesh, DamagedFilesCannotLoadAndSaySo) {
    const char* shared = std::getenv("VKC_SHARED_DIR");
    const std::string dir = std::string(shared ? shared : "") + "/bad-input/";
    struct Case { const char* file; const char* mentions; };
    const Case cases[] = {
        {"silent_stl_facet_with_5_vertices.stl", "line 7: in facet 0: a 4th vertex (a facet has exactly 3)"},
        {"crash_ply_binary_segv.ply", "line 2: expected \"format"},
        {"hang_ply_ascii_no_end_header.ply", "line 3: end of file before end_header"},
        {"crash_gltf_deep_node_chain_20000.gltf", "node hierarchy deeper than 256 levels"},
    };
    for (const Case& c : cases) {
        auto run = test::runCli("check-mesh --no-self-intersections " + dir + c.file);
        EXPECT_EQ(run.exitCode, 1) << c.file << ":\n" << run.output;
        EXPECT_NE(run.output.find(std::string(c.file) + ": cannot load: "), std::string::npos) << run.output;
        EXPECT_NE(run.output.find(c.mentions), std::string::npos) << run.output;
        EXPECT_EQ(run.output.find('\n'), run.output.size() - 1) << "one line:\n" << run.output;
    }
}

TEST(CliCheckMesh, MissingFileIsAProblemNotACrash) {
    auto run = test::runCli("check-mesh /nonexistent/mesh.obj");
    EXPECT_EQ(run.exitCode, 1) << run.output;
    EXPECT_NE(run.output.find("/nonexistent/mesh.obj"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace vkc
