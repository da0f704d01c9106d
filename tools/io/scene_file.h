// The JSON scene file of DESIGN.md "Formats": meshes (files relative to the scene file, or
// generated box/sphere/torus), objects with rigid transforms, and optional frames that override
// transforms and swap in deformed vertex positions. Loads every mesh; checks nothing topological.
#pragma once

#include "vkcollide/mesh.h"
#include "vkcollide/status.h"

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace vkc::io {

// A rigid transform with uniform scale: world = translate(position) * rotate(rotation) * scale.
// Double precision, like vkc::Scene's transforms: far from the origin a float position would
// move a small object by more than its size.
struct ObjectPose {
    glm::dvec3 position{0.0};
    glm::dquat rotation{1.0, 0.0, 0.0, 0.0};  // unit quaternion (w, x, y, z)
    double scale = 1.0;                       // > 0

    glm::dmat4 matrix() const;
};

struct SceneMesh {
    std::string name;    // the key in "meshes"; also MeshData::name
    std::string source;  // the resolved file path, or "box" / "sphere" / "torus"
    MeshData data;
};

struct SceneObject {
    std::string name;    // unique within the scene
    uint32_t mesh = 0;   // index into SceneDescription::meshes
    ObjectPose pose;     // the pose given in "objects" (frames start from it)
};

// Replacement positions for one mesh in one frame (a deforming mesh); same count and order as
// the mesh's own positions, same triangles.
struct DeformedMesh {
    uint32_t mesh = 0;
    std::string file;
    std::vector<glm::vec3> positions;
};

struct SceneFrame {
    std::vector<ObjectPose> poses;        // one per object, index = object index
    std::vector<glm::dmat4> transforms;   // poses[i].matrix(), for convenience
    std::vector<DeformedMesh> deformed;   // meshes whose vertices this frame replaces
};

struct SceneDescription {
    std::string path;                     // the scene file, as given (for messages and reports)
    std::vector<SceneMesh> meshes;        // in the order of the "meshes" keys in the file
    std::vector<SceneObject> objects;     // object index = position in "objects"
    std::vector<SceneFrame> frames;       // at least one; without "frames", one frame of the base poses

    size_t frameCount() const { return frames.size(); }
    const MeshData& meshOf(size_t object) const { return meshes[objects[object].mesh].data; }
};

// Reads and parses a scene file and loads every mesh it names. Each frame in "frames" is the base
// poses of "objects" plus that frame's overrides (frames do not accumulate). "euler_deg" [x, y, z]
// rotates about the x axis first, then y, then z, all fixed world axes: R = Rz * Ry * Rx.
// A quaternion within 1e-3 of unit length is normalised; one further off is an error. A key
// named "comment" is allowed (and ignored) in every JSON object; every other unknown key is an error.
// Errors start with `scene "<path>": ` and give the JSON path, e.g.
//   scene "s.json": objects[1] "b": postion: unknown key (did you mean "position"?)
// JSON nested deeper than kMaxJsonDepth (64) levels is refused before parsing, naming the line.
// Codes: NotFound (scene or mesh file, mesh name), IoError, InvalidScene (everything else).
Result<SceneDescription> loadScene(const std::filesystem::path& path);

// As loadScene, from text; relative mesh paths resolve against `baseDir`; `displayName` is the
// name used in messages and SceneDescription::path.
Result<SceneDescription> parseScene(std::string_view text, const std::filesystem::path& baseDir,
                                    std::string_view displayName);

}  // namespace vkc::io
