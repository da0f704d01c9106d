// Seeded scenes for the differential campaign. Scene (seed, index) is a pure function of the two
// numbers and the mesh folder: a scene file (DESIGN.md "Formats") as JSON, whose mesh files are
// relative to the mesh folder until writeSceneFile() rebases them beside the written scene.
// Kinds, by index mod 6: a pair at one overlap depth or separation; an animated pair passing
// through several; a crowd (40 in CI, 40-200 otherwise); containment and nesting; axis-aligned
// boxes touching by a face, an edge and a corner (float-exact); a pair with an open mesh.
// Transforms: log-uniform size over 1e-3..1e3, rotations uniform on SO(3) (Shoemake), positions
// up to 1e4 from the origin. Pair depths are aimed with the exact oracle: bisection along a
// random direction to the touching position, then an offset by a fraction of the smaller size.
// Pose values are written in double; a small object far from the origin may be placed only as
// precisely as the parser's float poses allow (the truth uses the parsed poses, so it stays exact).
#pragma once

#include "tools/difftest/truth.h"
#include "vkcollide/status.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace vkc::difftest {

// The meshes scenes draw from, loaded once.
struct MeshPool {
    struct Entry {
        std::string name;     // key in a scene's "meshes"
        nlohmann::json spec;  // {"file": ...} relative to the mesh folder, or a generator
        MeshData data;
        glm::dvec3 center{0.0};  // of the mesh's bounding box
        double radius = 1.0;     // half the bounding box diagonal
    };
    std::filesystem::path meshDir;
    std::vector<Entry> entries;
    std::vector<size_t> closedSmall;  // crowds and containment (few triangles)
    std::vector<size_t> closed;       // pairs
    std::vector<size_t> open;         // open meshes and soups (aabb-tree and exact only)
    std::vector<size_t> containers;   // closed and containing their box centre (sphere, box)

    // `ciSize`: meshes of at most a few thousand triangles; otherwise the shared meshes up to
    // ~30k triangles as well (no dragon or subdivided armadillo: CGAL volumes would dominate).
    static Result<MeshPool> load(const std::filesystem::path& meshDir, bool ciSize);
};

struct GeneratedScene {
    std::string id;                 // "<seed>-<index>"
    std::string kind;
    nlohmann::json file;            // the scene file
    bool closedOnly = true;         // image-space methods may run on it
    // The direction the pair was built along (overlap depth is measured along it); other pairs
    // use the line between their box centres.
    std::map<std::pair<uint32_t, uint32_t>, glm::dvec3> directions;
};

Result<GeneratedScene> generateScene(const MeshPool& pool, uint64_t seed, uint64_t index, bool ciSize);

// Writes the scene to `dir/<id>.json` with mesh paths relative to `dir`; returns the path.
Result<std::filesystem::path> writeSceneFile(const GeneratedScene& scene, const MeshPool& pool,
                                             const std::filesystem::path& dir);

}  // namespace vkc::difftest
