// The scene file: the bundled demo scene loads with the transforms it spells out (quaternion and
// Euler checked analytically), frames override and deform, and every bad scene in
// tools/scenes/bad/ fails with a message that names the scene file and the culprit.
#include "tools/io/scene_file.h"
#include "vkcollide/mesh_checks.h"

#include "tests/io/test_paths.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <glm/gtc/constants.hpp>

#include <cmath>
#include <fstream>

namespace vkc {
namespace {

using ::testing::HasSubstr;

glm::vec3 apply(const glm::dmat4& m, glm::vec3 p) { return glm::vec3(m * glm::dvec4(p, 1.0)); }

void expectNear(glm::vec3 actual, glm::vec3 expected, float tolerance = 1e-5f) {
    EXPECT_NEAR(actual.x, expected.x, tolerance);
    EXPECT_NEAR(actual.y, expected.y, tolerance);
    EXPECT_NEAR(actual.z, expected.z, tolerance);
}

io::SceneDescription parseOk(const std::string& json, const std::filesystem::path& dir = ".") {
    Result<io::SceneDescription> scene = io::parseScene(json, dir, "inline.json");
    EXPECT_TRUE(scene.ok()) << scene.status().message;
    return scene.ok() ? std::move(scene).value() : io::SceneDescription{};
}

Status parseError(const std::string& json) {
    Result<io::SceneDescription> scene = io::parseScene(json, ".", "inline.json");
    EXPECT_FALSE(scene.ok());
    return scene.ok() ? Status::success() : scene.status();
}

TEST(SceneFile, DemoSceneLoads) {
    const auto path = test::sourceDir() / "tools/scenes/demo.json";
    Result<io::SceneDescription> loaded = io::loadScene(path);
    ASSERT_TRUE(loaded.ok()) << loaded.status().message;
    const io::SceneDescription& scene = *loaded;
    EXPECT_EQ(scene.path, path.string());
    ASSERT_EQ(scene.meshes.size(), 7u);
    ASSERT_EQ(scene.objects.size(), 7u);
    ASSERT_EQ(scene.frameCount(), 2u);
    EXPECT_EQ(scene.meshes[0].name, "bunny");  // file order, not alphabetical
    EXPECT_EQ(scene.meshes[0].data.name, "bunny");
    EXPECT_EQ(scene.meshOf(0).triangleCount(), 3674u);
    EXPECT_EQ(scene.meshes[5].source, "box");
    EXPECT_EQ(scene.objects[6].name, "pebble");
    EXPECT_EQ(scene.objects[6].mesh, 6u);
    for (const io::SceneMesh& mesh : scene.meshes)
        EXPECT_TRUE(checkMesh(mesh.data).validForVolumeMethods()) << mesh.name;

    const std::vector<glm::dmat4>& t = scene.frames[0].transforms;
    ASSERT_EQ(t.size(), 7u);
    // bunny: euler_deg [0, 30, 0], scale 0.2: x axis turns towards -z.
    const float c30 = std::cos(glm::radians(30.0f)), s30 = std::sin(glm::radians(30.0f));
    expectNear(apply(t[0], {1, 0, 0}), 0.2f * glm::vec3(c30, 0, -s30));
    // ring: quaternion [0.7071, 0.7071, 0, 0] = 90 degrees about x: y goes to z.
    expectNear(apply(t[2], {0, 1, 0}), {4, 0, 1});
    expectNear(apply(t[2], {0, 0, 1}), {4, -1, 0});
    // core: scale only.
    expectNear(apply(t[3], {1, 1, 1}), {5.4f, 0.4f, 0.4f});
    // knot: euler_deg [20, 0, 45], scale 2, at (0, 0, 4): R = Rz(45) * Rx(20).
    const float c20 = std::cos(glm::radians(20.0f)), s20 = std::sin(glm::radians(20.0f));
    const float h = std::sqrt(0.5f);
    expectNear(apply(t[5], {0, 1, 0}), glm::vec3(0, 0, 4) + 2.0f * glm::vec3(-h * c20, h * c20, s20));
    expectNear(apply(t[5], {1, 0, 0}), glm::vec3(0, 0, 4) + 2.0f * glm::vec3(h, h, 0));

    // Frame 1 moves ball and peg; the ball keeps its base scale; others keep their base pose.
    const io::SceneFrame& f1 = scene.frames[1];
    expectNear(f1.poses[1].position, {0.6f, 3.5f, 0});
    EXPECT_FLOAT_EQ(f1.poses[1].scale, 0.5f);
    expectNear(apply(f1.transforms[4], {0, 0, 0}), {4.6f, 0, 0});
    EXPECT_EQ(f1.transforms[0], t[0]);
    EXPECT_TRUE(f1.deformed.empty());
}

TEST(SceneFile, EulerRotatesAboutXThenYThenZ) {
    const io::SceneDescription scene = parseOk(R"({
      "meshes": {"b": {"box": {"size": [1, 1, 1]}}},
      "objects": [
        {"name": "x90", "mesh": "b", "euler_deg": [90, 0, 0]},
        {"name": "y90", "mesh": "b", "euler_deg": [0, 90, 0]},
        {"name": "z90", "mesh": "b", "euler_deg": [0, 0, 90]},
        {"name": "xz",  "mesh": "b", "euler_deg": [90, 0, 90]}
      ]})");
    ASSERT_EQ(scene.frameCount(), 1u);
    const auto& t = scene.frames[0].transforms;
    expectNear(apply(t[0], {0, 1, 0}), {0, 0, 1});
    expectNear(apply(t[1], {0, 0, 1}), {1, 0, 0});
    expectNear(apply(t[2], {1, 0, 0}), {0, 1, 0});
    // x first: y -> z; then z about z stays z. And x: stays x under Rx, then goes to y under Rz.
    expectNear(apply(t[3], {0, 1, 0}), {0, 0, 1});
    expectNear(apply(t[3], {1, 0, 0}), {0, 1, 0});
}

TEST(SceneFile, QuaternionNearUnitIsNormalisedDefaultsAreIdentity) {
    const io::SceneDescription scene = parseOk(R"({
      "meshes": {"b": {"box": {"size": [1, 1, 1]}}},
      "objects": [{"name": "a", "mesh": "b", "rotation": [1.0005, 0, 0, 0]}, {"name": "plain", "mesh": "b"}],
      "frames": []})");
    ASSERT_EQ(scene.objects.size(), 2u);
    ASSERT_EQ(scene.frameCount(), 1u);
    EXPECT_NEAR(glm::length(scene.objects[0].pose.rotation), 1.0f, 1e-6f);
    EXPECT_EQ(scene.frames[0].transforms[1], glm::dmat4(1.0));
}

TEST(SceneFile, GeneratedMeshParameters) {
    const io::SceneDescription scene = parseOk(R"({
      "meshes": {"s": {"sphere": {"radius": 0.5, "subdivisions": 2}}, "t": {"torus": {"major": 1, "minor": 0.25, "segments": 16}}},
      "objects": []})");
    ASSERT_EQ(scene.meshes.size(), 2u);
    EXPECT_EQ(scene.meshes[0].data.triangleCount(), 320u);
    EXPECT_EQ(scene.meshes[1].data.triangleCount(), 512u);
    EXPECT_EQ(parseError(R"({"meshes": {"s": {"sphere": {"radius": 0.5, "subdivisions": 2.5}}}, "objects": []})").message,
              "scene \"inline.json\": meshes.s.sphere.subdivisions: expected an integer in [0, 8], got 2.5");
    EXPECT_THAT(parseError(R"({"meshes": {"t": {"torus": {"major": 1, "minor": 2}}}, "objects": []})").message,
                HasSubstr("meshes.t.torus: \"minor\" must be smaller than \"major\""));
    EXPECT_THAT(parseError(R"({"meshes": {"b": {"box": {"size": [1, 1, 1]}, "file": "x.obj"}}, "objects": []})").message,
                HasSubstr("meshes.b: needs exactly one of"));
}

TEST(SceneFile, FramesDeformMeshes) {
    const auto dir = test::scratchDir("scene_deform");
    std::ofstream(dir / "base.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    std::ofstream(dir / "frame1.obj") << "v 0 0 0\nv 2 0 0\nv 0 2 0\nv 0 0 2\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    std::ofstream(dir / "short.obj") << "v 0 0 0\nv 2 0 0\nv 0 2 0\nf 1 3 2\n";
    const io::SceneDescription scene = parseOk(R"({
      "meshes": {"tet": {"file": "base.obj"}},
      "objects": [{"name": "a", "mesh": "tet"}],
      "frames": [{}, {"meshes": {"tet": {"vertices": "frame1.obj"}}, "objects": {"a": {"scale": 3}}}]})", dir);
    ASSERT_EQ(scene.frameCount(), 2u);
    EXPECT_TRUE(scene.frames[0].deformed.empty());
    ASSERT_EQ(scene.frames[1].deformed.size(), 1u);
    EXPECT_EQ(scene.frames[1].deformed[0].mesh, 0u);
    EXPECT_EQ(scene.frames[1].deformed[0].positions[3], glm::vec3(0, 0, 2));
    EXPECT_FLOAT_EQ(scene.frames[1].poses[0].scale, 3.0f);
    EXPECT_FLOAT_EQ(scene.frames[0].poses[0].scale, 1.0f);  // frames do not leak into each other

    Result<io::SceneDescription> bad = io::parseScene(R"({
      "meshes": {"tet": {"file": "base.obj"}},
      "objects": [{"name": "a", "mesh": "tet"}],
      "frames": [{"meshes": {"tet": {"vertices": "short.obj"}}}]})", dir, "deform.json");
    ASSERT_FALSE(bad.ok());
    EXPECT_THAT(bad.status().message, HasSubstr("frames[0].meshes.tet.vertices"));
    EXPECT_THAT(bad.status().message, HasSubstr("3 vertices, but the mesh it deforms has 4"));
}

TEST(SceneFile, MissingSceneFile) {
    Result<io::SceneDescription> scene = io::loadScene("/nonexistent/scene.json");
    ASSERT_FALSE(scene.ok());
    EXPECT_EQ(scene.status().code, ErrorCode::NotFound);
    EXPECT_EQ(scene.status().message, "scene \"/nonexistent/scene.json\": not found");
}

struct BadScene {
    const char* file;
    ErrorCode code;
    const char* expected;  // must appear in the message, after `scene "<path>": `
};

const BadScene kBadScenes[] = {
    {"missing_mesh.json", ErrorCode::NotFound, "objects[1] \"b\".mesh: no mesh named \"bunnny\" in \"meshes\""},
    {"bad_json.json", ErrorCode::InvalidScene, "line 4, column 57: bad JSON: syntax error"},
    {"unknown_key.json", ErrorCode::InvalidScene,
     "objects[1] \"b\".postion: unknown key (did you mean \"position\"?)"},
    {"nan_transform.json", ErrorCode::InvalidScene, "objects[1] \"b\".position[1]: expected a number, got string"},
    {"inf_transform.json", ErrorCode::InvalidScene, "objects[0] \"a\".scale: 1e+300 is outside the supported range [1e-06, 1e+06]"},
    {"duplicate_name.json", ErrorCode::InvalidScene, "objects[1] \"a\": duplicate object name (also objects[0])"},
    {"bad_quaternion.json", ErrorCode::InvalidScene, "objects[0] \"tilted\".rotation: not a unit quaternion"},
    {"zero_scale.json", ErrorCode::InvalidScene, "objects[0] \"flat\".scale: must be > 0, got 0"},
    {"missing_file.json", ErrorCode::NotFound, "meshes.ghost: mesh file \""},
    {"unknown_frame_object.json", ErrorCode::NotFound, "frames[0].objects.c: no object named \"c\""},
};

void PrintTo(const BadScene& bad, std::ostream* os) { *os << bad.file; }

class BadSceneFile : public ::testing::TestWithParam<BadScene> {};

TEST_P(BadSceneFile, FailsNamingTheCulprit) {
    const BadScene& bad = GetParam();
    const auto path = test::sourceDir() / "tools/scenes/bad" / bad.file;
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    Result<io::SceneDescription> scene = io::loadScene(path);
    ASSERT_FALSE(scene.ok());
    EXPECT_EQ(scene.status().code, bad.code) << scene.status().message;
    EXPECT_THAT(scene.status().message, HasSubstr("scene \"" + path.string() + "\": "));
    EXPECT_THAT(scene.status().message, HasSubstr(bad.expected));
}

INSTANTIATE_TEST_SUITE_P(ToolsScenesBad, BadSceneFile, ::testing::ValuesIn(kBadScenes),
                         [](const ::testing::TestParamInfo<BadScene>& info) {
                             std::string name = info.param.file;
                             return name.substr(0, name.find('.'));
                         });

TEST(SceneFile, OtherStructuralErrors) {
    EXPECT_THAT(parseError(R"({"objects": []})").message, HasSubstr("missing \"meshes\""));
    EXPECT_THAT(parseError(R"({"meshes": {}, "objects": [], "x": 1e999})").message,
                HasSubstr("bad JSON: number overflow parsing '1e999'"));
    EXPECT_THAT(parseError(R"([1, 2])").message, HasSubstr("expected a JSON object, got array"));
    EXPECT_THAT(parseError(R"({"meshes": {}, "objects": [], "frame": []})").message,
                HasSubstr("frame: unknown key (did you mean \"frames\"?)"));
    EXPECT_THAT(parseError(R"({"meshes": {"b": {"box": {"size": [1, 1, 1]}}},
                                "objects": [{"name": "a", "mesh": "b", "rotation": [1, 0, 0, 0], "euler_deg": [0, 0, 0]}]})")
                    .message,
                HasSubstr("objects[0] \"a\": give either \"rotation\" or \"euler_deg\", not both"));
    EXPECT_THAT(parseError(R"({"meshes": {"b": {"box": {"size": [1, 1, 1]}}}, "objects": [{"name": "a", "mesh": "b", "position": [1, 2]}]})")
                    .message,
                HasSubstr("objects[0] \"a\".position: expected an array of 3 numbers, got an array of 2"));
    EXPECT_THAT(parseError(R"({"meshes": {}, "objects": [{"mesh": "b"}]})").message, HasSubstr("objects[0]: missing \"name\""));
    EXPECT_THAT(parseError(R"({"meshes": {"b": {"box": {"size": [1, 1, 1]}}},
                                "objects": [{"name": "a", "mesh": "b"},
                                            {"name": "c", "mesh": "b", "position": [1, 0, 0], "position": [2, 0, 0]}]})")
                    .message,
                HasSubstr("objects[1].position: key given twice (JSON keeps only the last)"));
    EXPECT_THAT(parseError(R"({"meshes": {}, "meshes": {}, "objects": []})").message,
                HasSubstr("meshes: key given twice"));
}

}  // namespace
}  // namespace vkc
