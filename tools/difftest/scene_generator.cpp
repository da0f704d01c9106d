#include "tools/difftest/scene_generator.h"

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>

namespace vkc::difftest {

namespace {

struct PoolMesh {
    const char* name;
    const char* json;
    bool open;
    bool small;
    bool container;
};

// Volume ground truth is defined for each closed one (meshes README: closed, manifold, oriented,
// no self-intersections); wingnut (self-intersecting) is left out for that reason.
constexpr PoolMesh kPoolMeshes[] = {
    {"gbox", R"({"box": {"size": [1, 1, 1]}})", false, true, true},
    {"gsphere", R"({"sphere": {"radius": 0.5, "subdivisions": 2}})", false, true, true},
    {"gtorus", R"({"torus": {"major": 0.5, "minor": 0.2, "segments": 16}})", false, true, false},
    {"cube", R"({"file": "cube.stl"})", false, true, true},
    {"sphere_ico4", R"({"file": "sphere_ico4.stl"})", false, true, true},
    {"pinion", R"({"file": "pinion_gear.off"})", false, true, false},
    {"fcl_rob", R"({"file": "open-or-broken/fcl_rob.obj"})", true, true, false},
    {"bunny_npm", R"({"file": "bunny_npm.obj"})", false, false, false},
    {"coupling", R"({"file": "couplingdown.off"})", false, false, false},
    {"knot", R"({"file": "knot.off"})", false, false, false},
    {"ballA", R"({"file": "ballA.off"})", false, false, true},
    {"torus_stl", R"({"file": "torus.stl"})", false, false, false},
    {"fandisk", R"({"file": "fandisk.obj"})", false, false, false},
    {"rocker_arm", R"({"file": "rocker-arm.obj"})", false, false, false},
    {"armadillo_29k", R"({"file": "armadillo_29k.obj"})", false, false, false},
    {"teapot_open", R"({"file": "open-or-broken/teapot_open.obj"})", true, false, false},
};

// splitmix64: a portable stream, so (seed, index) gives the same scene with every standard library.
struct Rng {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    double logUniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
    size_t pick(size_t n) { return size_t(next() % n); }
    int integer(int lo, int hi) { return lo + int(next() % uint64_t(hi - lo + 1)); }
    glm::dquat rotation() {  // uniform on SO(3) (Shoemake 1992)
        const double u1 = uniform(), u2 = 2.0 * std::numbers::pi * uniform(), u3 = 2.0 * std::numbers::pi * uniform();
        const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
        return glm::dquat(a * std::sin(u2), a * std::cos(u2), b * std::sin(u3), b * std::cos(u3));
    }
    glm::dvec3 direction() {
        const double z = uniform(-1.0, 1.0), phi = 2.0 * std::numbers::pi * uniform();
        const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
        return {r * std::cos(phi), r * std::sin(phi), z};
    }
    // A point up to 1e4 from the origin; the distance is log-uniform over 1e-1..1e4 so that
    // near and far placements are both common.
    glm::dvec3 position() { return direction() * logUniform(1e-1, 1e4); }
};

// A pose in double: the scene file gets these values in full, so that a file format or Scene
// that keeps double transforms places objects exactly where the generator aimed.
struct Pose {
    glm::dvec3 position{0.0};
    glm::dquat rotation{1.0, 0.0, 0.0, 0.0};
    double scale = 1.0;
    // As the scene file parser stores it today (io::ObjectPose).
    io::ObjectPose parsed() const {
        io::ObjectPose pose;
        pose.position = glm::vec3(position);
        pose.rotation = glm::quat(float(rotation.w), float(rotation.x), float(rotation.y), float(rotation.z));
        pose.scale = float(scale);
        return pose;
    }
};

// Places the mesh's box centre at `centre` with world radius `radius`.
Pose poseFor(const MeshPool::Entry& mesh, const glm::dvec3& centre, double radius, const glm::dquat& rotation) {
    const double scale = radius / mesh.radius;
    return {centre - rotation * (scale * mesh.center), rotation, scale};
}

nlohmann::json positionJson(const glm::dvec3& p) { return {p.x, p.y, p.z}; }

nlohmann::json poseJson(const Pose& pose) {
    return {{"position", positionJson(pose.position)},
            {"rotation", {pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z}},
            {"scale", pose.scale}};
}

struct Builder {
    const MeshPool& pool;
    GeneratedScene& scene;
    std::vector<Pose> poses;
    std::vector<size_t> meshes;

    uint32_t add(size_t mesh, const Pose& pose) {
        const MeshPool::Entry& entry = pool.entries[mesh];
        scene.file["meshes"][entry.name] = entry.spec;
        nlohmann::json object = poseJson(pose);
        object["name"] = "o" + std::to_string(poses.size());
        object["mesh"] = entry.name;
        scene.file["objects"].push_back(object);
        if (std::find(pool.open.begin(), pool.open.end(), mesh) != pool.open.end()) scene.closedOnly = false;
        poses.push_back(pose);
        meshes.push_back(mesh);
        return uint32_t(poses.size() - 1);
    }
    Result<TruthObject> truth(uint32_t object) const {
        return placeObject(pool.entries[meshes[object]].data, poses[object].parsed(), true);
    }
};

// Places b (mesh, radius, rotation) along `direction` from a's centre so that its overlap depth
// along the direction is `depth` (negative: a gap), using the exact touching position.
Result<glm::dvec3> aimedCentre(const Builder& builder, uint32_t a, const MeshPool::Entry& meshB, double radiusB,
                               const glm::dquat& rotationB, const glm::dvec3& centreA, const glm::dvec3& direction,
                               double depth) {
    auto truthA = builder.truth(a);
    if (!truthA) return truthA.status();
    auto truthB = placeObject(meshB.data, poseFor(meshB, centreA, radiusB, rotationB).parsed(), true);
    if (!truthB) return truthB.status();
    auto touching = overlapDepth(truthA.value(), truthB.value(), direction);
    if (!touching) return touching.status();
    return centreA + (touching.value() - depth) * direction;
}

Status pairScene(Builder& builder, Rng& rng, const std::vector<size_t>& meshesA, const std::vector<size_t>& meshesB,
                 const std::vector<double>& depthFractions, bool animated) {
    const MeshPool& pool = builder.pool;
    const size_t meshA = meshesA[rng.pick(meshesA.size())], meshB = meshesB[rng.pick(meshesB.size())];
    const double radiusA = rng.logUniform(1e-3, 1e3);
    const double radiusB = radiusA * rng.logUniform(0.5, 2.0);
    const glm::dvec3 centreA = rng.position();
    const uint32_t a = builder.add(meshA, poseFor(pool.entries[meshA], centreA, radiusA, rng.rotation()));
    const glm::dquat rotationB = rng.rotation();
    const glm::dvec3 direction = rng.direction();
    const double unit = std::min(radiusA, radiusB);
    std::vector<glm::dvec3> centres;
    for (double fraction : depthFractions) {
        auto centre = aimedCentre(builder, a, pool.entries[meshB], radiusB, rotationB, centreA, direction, fraction * unit);
        if (!centre) return centre.status();
        centres.push_back(centre.value());
    }
    const uint32_t b = builder.add(meshB, poseFor(pool.entries[meshB], centres[0], radiusB, rotationB));
    builder.scene.directions[{a, b}] = direction;
    if (animated)
        for (const glm::dvec3& centre : centres) {
            const Pose pose = poseFor(pool.entries[meshB], centre, radiusB, rotationB);
            builder.scene.file["frames"].push_back({{"objects", {{"o" + std::to_string(b), {{"position", positionJson(pose.position)}}}}}});
        }
    return Status::success();
}

void crowdScene(Builder& builder, Rng& rng, bool ciSize) {
    const MeshPool& pool = builder.pool;
    const int count = ciSize ? 40 : rng.integer(40, 200);
    const double radius = rng.logUniform(1e-3, 1e3);
    const glm::dvec3 centre = rng.position();
    // Box side for a density where about a third of the objects touch a neighbour.
    const double side = radius * 2.6 * std::cbrt(double(count));
    for (int i = 0; i < count; ++i) {
        const size_t mesh = pool.closedSmall[rng.pick(pool.closedSmall.size())];
        const glm::dvec3 at = centre + side * glm::dvec3(rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5));
        builder.add(mesh, poseFor(pool.entries[mesh], at, radius * rng.logUniform(0.6, 1.6), rng.rotation()));
    }
}

// A container holding a smaller solid holding a smaller one still (all sharing a centre), plus a
// fourth object half in the container's wall.
void containmentScene(Builder& builder, Rng& rng) {
    const MeshPool& pool = builder.pool;
    const double radius = rng.logUniform(1e-3, 1e3);
    const glm::dvec3 centre = rng.position();
    const size_t outer = pool.containers[rng.pick(pool.containers.size())];
    builder.add(outer, poseFor(pool.entries[outer], centre, radius, rng.rotation()));
    const size_t middle = pool.containers[rng.pick(pool.containers.size())];
    builder.add(middle, poseFor(pool.entries[middle], centre, 0.4 * radius, rng.rotation()));
    const size_t inner = pool.closedSmall[rng.pick(pool.closedSmall.size())];
    builder.add(inner, poseFor(pool.entries[inner], centre, 0.1 * radius, rng.rotation()));
    const size_t wall = pool.closedSmall[rng.pick(pool.closedSmall.size())];
    builder.add(wall, poseFor(pool.entries[wall], centre + 0.5 * radius * rng.direction(), 0.2 * radius, rng.rotation()));
}

// Unit boxes scaled by a power of two at integer multiples of it: every coordinate is exact in
// float, so the boxes touch exactly by a face (o0-o1), an edge (o0-o2) and a corner (o0-o3).
void touchingScene(Builder& builder, Rng& rng) {
    const size_t box = 0;  // gbox: centred, size 1
    const double size = std::ldexp(1.0, rng.integer(-10, 9));
    // Integer cells below 2^20 keep (cell + 1) * size exact in float's 24-bit significand.
    const double cells = std::min(std::ldexp(1.0, 20), std::floor(1e4 / size));
    const glm::dvec3 cell(std::floor(rng.uniform(-cells, cells)), std::floor(rng.uniform(-cells, cells)),
                          std::floor(rng.uniform(-cells, cells)));
    const glm::dvec3 offsets[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 1}, {-1, -1, -1}};
    for (const glm::dvec3& offset : offsets) {
        builder.add(box, Pose{(cell + offset) * size, glm::dquat(1.0, 0.0, 0.0, 0.0), size});
    }
}

}  // namespace

Result<MeshPool> MeshPool::load(const std::filesystem::path& meshDir, bool ciSize) {
    MeshPool pool;
    pool.meshDir = meshDir;
    nlohmann::json file = {{"meshes", nlohmann::json::object()}, {"objects", nlohmann::json::array()}};
    std::vector<const PoolMesh*> chosen;
    for (const PoolMesh& mesh : kPoolMeshes) {
        if (ciSize && !mesh.small) continue;
        chosen.push_back(&mesh);
        file["meshes"][mesh.name] = nlohmann::json::parse(mesh.json);
        file["objects"].push_back({{"name", mesh.name}, {"mesh", mesh.name}});
    }
    auto parsed = io::parseScene(file.dump(), meshDir, "difftest mesh pool");
    if (!parsed) return parsed.status();
    for (size_t i = 0; i < chosen.size(); ++i) {
        Entry entry;
        entry.name = chosen[i]->name;
        entry.spec = nlohmann::json::parse(chosen[i]->json);
        entry.data = parsed->meshOf(i);
        glm::dvec3 lo(INFINITY), hi(-INFINITY);
        for (const glm::vec3& p : entry.data.positions) {
            lo = glm::min(lo, glm::dvec3(p));
            hi = glm::max(hi, glm::dvec3(p));
        }
        entry.center = 0.5 * (lo + hi);
        entry.radius = 0.5 * glm::length(hi - lo);
        (chosen[i]->open ? pool.open : pool.closed).push_back(i);
        if (!chosen[i]->open && chosen[i]->small) pool.closedSmall.push_back(i);
        if (chosen[i]->container) pool.containers.push_back(i);
        pool.entries.push_back(std::move(entry));
    }
    return pool;
}

Result<GeneratedScene> generateScene(const MeshPool& pool, uint64_t seed, uint64_t index, bool ciSize) {
    GeneratedScene scene;
    scene.id = std::to_string(seed) + "-" + std::to_string(index);
    scene.file = {{"comment", "vkcollide-difftest --seed " + std::to_string(seed) + " --first " + std::to_string(index) +
                                  " --scenes 1"},
                  {"meshes", nlohmann::json::object()},
                  {"objects", nlohmann::json::array()}};
    Rng rng{seed * 0x9E3779B97F4A7C15ull ^ (index + 1) * 0xD1B54A32D192ED03ull};
    Builder builder{pool, scene, {}, {}};
    static const std::vector<double> kDepths = {0.3, 0.05, 0.01, 0.002, 0.0, -0.002, -0.01, -0.05, -0.3};
    switch (index % 6) {
    case 0:
        scene.kind = "pair";
        VKC_TRY(pairScene(builder, rng, pool.closed, pool.closed, {kDepths[rng.pick(kDepths.size())]}, false));
        break;
    case 1:
        scene.kind = "animated-pair";
        VKC_TRY(pairScene(builder, rng, pool.closed, pool.closed, {0.2, 0.02, 0.0, -0.02, -0.2}, true));
        break;
    case 2:
        scene.kind = "crowd";
        crowdScene(builder, rng, ciSize);
        break;
    case 3:
        scene.kind = "containment";
        containmentScene(builder, rng);
        break;
    case 4:
        scene.kind = "touching";
        touchingScene(builder, rng);
        break;
    default:
        scene.kind = "open-pair";
        VKC_TRY(pairScene(builder, rng, pool.open, pool.closed, {kDepths[rng.pick(kDepths.size())]}, false));
        break;
    }
    return scene;
}

Result<std::filesystem::path> writeSceneFile(const GeneratedScene& scene, const MeshPool& pool,
                                             const std::filesystem::path& dir) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    nlohmann::json file = scene.file;
    for (auto& [name, spec] : file["meshes"].items())
        if (spec.contains("file"))
            spec["file"] = std::filesystem::relative(std::filesystem::absolute(pool.meshDir / spec["file"].get<std::string>()),
                                                     std::filesystem::absolute(dir))
                               .generic_string();
    const std::filesystem::path path = dir / (scene.id + ".json");
    std::ofstream out(path);
    if (!(out << file.dump(2) << "\n")) return makeError(ErrorCode::IoError, "cannot write scene \"" + path.string() + "\"");
    return path;
}

}  // namespace vkc::difftest
