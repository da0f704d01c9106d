// Scene file parsing. Errors are thrown as SceneError inside this file (it is tools code) and
// become a Status at the two entry points; every message carries the JSON path of the culprit,
// and the object's name once it is known, so a scene author can find the line without a debugger.
#include "tools/io/scene_file.h"

#include "collision/frames/format_number.h"
#include "collision/scene/generated_solids.h"
#include "tools/io/json_depth.h"
#include "tools/io/mesh_loader.h"
#include "vkcollide/scene.h"

#include <nlohmann/json.hpp>

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <sstream>

namespace vkc::io {
namespace {

using Json = nlohmann::ordered_json;  // keeps "meshes" in file order, so mesh indices match the file

struct SceneError {
    ErrorCode code;
    std::string message;  // without the `scene "...": ` prefix
};

[[noreturn]] void fail(const std::string& where, const std::string& what, ErrorCode code = ErrorCode::InvalidScene) {
    throw SceneError{code, where.empty() ? what : where + ": " + what};
}

std::string join(const std::string& where, const std::string& key) { return where.empty() ? key : where + "." + key; }

size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

const char* typeName(const Json& value) {
    if (value.is_number()) return "number";
    return value.type_name();  // "string", "array", "object", "boolean", "null"
}

void requireObject(const Json& value, const std::string& where) {
    if (!value.is_object()) fail(where, std::string("expected a JSON object, got ") + typeName(value));
}

// Rejects keys outside `allowed` (and "comment"), suggesting the closest allowed one.
void checkKeys(const Json& object, const std::string& where, std::initializer_list<const char*> allowed) {
    for (const auto& item : object.items()) {
        const std::string& key = item.key();
        if (key == "comment") continue;
        if (std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) continue;
        std::string message = "unknown key";
        size_t best = 3;  // suggest only near misses: typos, not different words
        for (const char* candidate : allowed) {
            const size_t distance = editDistance(key, candidate);
            if (distance < best && distance < std::string_view(candidate).size()) {
                best = distance;
                message = std::string("unknown key (did you mean \"") + candidate + "\"?)";
            }
        }
        fail(join(where, key), message);
    }
}

// Poses stay in double (an object far from the origin keeps its shape); mesh parameters are float.
double number(const Json& value, const std::string& where) {
    if (!value.is_number()) fail(where, std::string("expected a number, got ") + typeName(value));
    const double d = value.get<double>();
    // JSON has no NaN, but 1e999 parses as Inf.
    if (!std::isfinite(d)) fail(where, "not a finite number (NaN or Inf)");
    return d;
}

float floatValue(double d, const std::string& where) {
    if (!std::isfinite(float(d))) fail(where, "beyond float range");
    return float(d);
}

uint32_t integer(const Json& value, const std::string& where, uint32_t min, uint32_t max) {
    const double f = number(value, where);
    if (f != std::floor(f) || f < double(min) || f > double(max))
        fail(where, "expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " +
                        value.dump());
    return uint32_t(f);
}

double positive(const Json& value, const std::string& where) {
    const double f = number(value, where);
    if (!(f > 0.0)) fail(where, "must be > 0, got " + value.dump());
    return f;
}

template <size_t N>
std::array<double, N> numbers(const Json& value, const std::string& where) {
    if (!value.is_array() || value.size() != N)
        fail(where, "expected an array of " + std::to_string(N) + " numbers, got " +
                        (value.is_array() ? "an array of " + std::to_string(value.size()) : std::string(typeName(value))));
    std::array<double, N> out{};
    for (size_t i = 0; i < N; ++i) out[i] = number(value[i], where + "[" + std::to_string(i) + "]");
    return out;
}

glm::dvec3 dvec3(const Json& value, const std::string& where) {
    const auto v = numbers<3>(value, where);
    return {v[0], v[1], v[2]};
}

glm::vec3 vec3(const Json& value, const std::string& where) {
    const glm::dvec3 v = dvec3(value, where);
    return {floatValue(v.x, where + "[0]"), floatValue(v.y, where + "[1]"), floatValue(v.z, where + "[2]")};
}

// Applies whichever of position / rotation / euler_deg / scale `object` holds onto `pose`.
void applyPose(const Json& object, const std::string& where, ObjectPose& pose) {
    if (object.contains("rotation") && object.contains("euler_deg"))
        fail(where, "give either \"rotation\" or \"euler_deg\", not both");
    if (auto it = object.find("position"); it != object.end()) {
        pose.position = dvec3(*it, join(where, "position"));
        for (int axis = 0; axis < 3; ++axis)
            if (std::abs(pose.position[axis]) > kMaxObjectTranslation)
                fail(join(where, "position") + "[" + std::to_string(axis) + "]",
                     formatNumber(pose.position[axis]) + " is beyond the supported " + formatNumber(kMaxObjectTranslation) +
                         " units from the origin");
    }
    if (auto it = object.find("rotation"); it != object.end()) {
        const auto q = numbers<4>(*it, join(where, "rotation"));
        const glm::dquat rotation(q[0], q[1], q[2], q[3]);  // glm's constructor order is (w, x, y, z)
        const double length = glm::length(rotation);
        if (std::abs(length - 1.0) > 1e-3)
            fail(join(where, "rotation"), "not a unit quaternion [w, x, y, z] (length " + std::to_string(length) +
                                              "; within 1e-3 of 1 it would be normalised)");
        pose.rotation = rotation / length;
    }
    if (auto it = object.find("euler_deg"); it != object.end()) {
        const glm::dvec3 radians = glm::radians(dvec3(*it, join(where, "euler_deg")));
        const glm::dquat qx = glm::angleAxis(radians.x, glm::dvec3(1, 0, 0));
        const glm::dquat qy = glm::angleAxis(radians.y, glm::dvec3(0, 1, 0));
        const glm::dquat qz = glm::angleAxis(radians.z, glm::dvec3(0, 0, 1));
        pose.rotation = qz * qy * qx;  // x first, about fixed world axes
    }
    if (auto it = object.find("scale"); it != object.end()) {
        pose.scale = positive(*it, join(where, "scale"));
        if (pose.scale < kMinObjectScale || pose.scale > kMaxObjectScale)
            fail(join(where, "scale"), formatNumber(pose.scale) + " is outside the supported range [" +
                                           formatNumber(kMinObjectScale) + ", " + formatNumber(kMaxObjectScale) + "]");
    }
}

class Parser {
public:
    Parser(const std::filesystem::path& baseDir) : baseDir_(baseDir) {}

    SceneDescription parse(const Json& root) {
        requireObject(root, "");
        checkKeys(root, "", {"meshes", "objects", "frames"});
        if (!root.contains("meshes")) fail("", "missing \"meshes\"");
        if (!root.contains("objects")) fail("", "missing \"objects\"");
        parseMeshes(root["meshes"]);
        parseObjects(root["objects"]);
        if (root.contains("frames")) {
            const Json& frames = root["frames"];
            if (!frames.is_array()) fail("frames", std::string("expected an array, got ") + typeName(frames));
            for (size_t f = 0; f < frames.size(); ++f) parseFrame(frames[f], "frames[" + std::to_string(f) + "]");
        }
        if (scene_.frames.empty()) addFrame({});  // no "frames" (or an empty list): one frame of the base poses
        return std::move(scene_);
    }

private:
    std::filesystem::path resolve(const std::string& file) const {
        const std::filesystem::path path(file);
        return path.is_absolute() ? path : baseDir_ / path;
    }

    void parseMeshes(const Json& meshes) {
        requireObject(meshes, "meshes");
        for (const auto& item : meshes.items()) {
            const std::string where = "meshes." + item.key();
            const Json& spec = item.value();
            requireObject(spec, where);
            checkKeys(spec, where, {"file", "box", "sphere", "torus"});
            const size_t kinds = spec.contains("file") + spec.contains("box") + spec.contains("sphere") + spec.contains("torus");
            if (kinds != 1) fail(where, "needs exactly one of \"file\", \"box\", \"sphere\", \"torus\"");
            SceneMesh mesh;
            mesh.name = item.key();
            if (auto it = spec.find("file"); it != spec.end()) {
                if (!it->is_string()) fail(where + ".file", std::string("expected a path string, got ") + typeName(*it));
                const std::filesystem::path path = resolve(it->get<std::string>());
                Result<MeshData> loaded = loadMesh(path);
                if (!loaded.ok()) fail(where, loaded.status().message, loaded.status().code);
                mesh.source = path.string();
                mesh.data = std::move(loaded.value());
            } else if (auto box = spec.find("box"); box != spec.end()) {
                requireObject(*box, where + ".box");
                checkKeys(*box, where + ".box", {"size"});
                if (!box->contains("size")) fail(where + ".box", "missing \"size\"");
                const glm::vec3 size = vec3((*box)["size"], where + ".box.size");
                if (!(size.x > 0 && size.y > 0 && size.z > 0)) fail(where + ".box.size", "every edge length must be > 0");
                mesh.source = "box";
                mesh.data = solids::box(size);
            } else if (auto sphere = spec.find("sphere"); sphere != spec.end()) {
                const std::string at = where + ".sphere";
                requireObject(*sphere, at);
                checkKeys(*sphere, at, {"radius", "subdivisions"});
                if (!sphere->contains("radius")) fail(at, "missing \"radius\"");
                const float radius = floatValue(positive((*sphere)["radius"], at + ".radius"), at + ".radius");
                const uint32_t subdivisions = sphere->contains("subdivisions")
                    ? integer((*sphere)["subdivisions"], at + ".subdivisions", 0, solids::kMaxSphereSubdivisions)
                    : 3;
                mesh.source = "sphere";
                mesh.data = solids::sphere(radius, subdivisions);
            } else {
                const Json& torus = spec["torus"];
                const std::string at = where + ".torus";
                requireObject(torus, at);
                checkKeys(torus, at, {"major", "minor", "segments"});
                if (!torus.contains("major") || !torus.contains("minor")) fail(at, "needs \"major\" and \"minor\"");
                const float major = floatValue(positive(torus["major"], at + ".major"), at + ".major");
                const float minor = floatValue(positive(torus["minor"], at + ".minor"), at + ".minor");
                if (!(minor < major)) fail(at, "\"minor\" must be smaller than \"major\" (else the torus intersects itself)");
                const uint32_t segments = torus.contains("segments") ? integer(torus["segments"], at + ".segments", 3, 4096) : 48;
                mesh.source = "torus";
                mesh.data = solids::torus(major, minor, segments);
            }
            mesh.data.name = mesh.name;
            meshIndex_[mesh.name] = uint32_t(scene_.meshes.size());
            scene_.meshes.push_back(std::move(mesh));
        }
    }

    void parseObjects(const Json& objects) {
        if (!objects.is_array()) fail("objects", std::string("expected an array, got ") + typeName(objects));
        for (size_t i = 0; i < objects.size(); ++i) {
            std::string where = "objects[" + std::to_string(i) + "]";
            const Json& spec = objects[i];
            requireObject(spec, where);
            if (!spec.contains("name")) fail(where, "missing \"name\"");
            if (!spec["name"].is_string() || spec["name"].get<std::string>().empty())
                fail(where + ".name", "expected a non-empty string");
            SceneObject object;
            object.name = spec["name"].get<std::string>();
            where += " \"" + object.name + "\"";
            checkKeys(spec, where, {"name", "mesh", "position", "rotation", "euler_deg", "scale"});
            if (auto [it, inserted] = objectIndex_.try_emplace(object.name, uint32_t(i)); !inserted)
                fail(where, "duplicate object name (also objects[" + std::to_string(it->second) + "])");
            if (!spec.contains("mesh")) fail(where, "missing \"mesh\"");
            if (!spec["mesh"].is_string()) fail(where + ".mesh", "expected a mesh name string");
            const std::string meshName = spec["mesh"].get<std::string>();
            auto mesh = meshIndex_.find(meshName);
            if (mesh == meshIndex_.end())
                fail(where + ".mesh", "no mesh named \"" + meshName + "\" in \"meshes\"", ErrorCode::NotFound);
            object.mesh = mesh->second;
            applyPose(spec, where, object.pose);
            scene_.objects.push_back(std::move(object));
        }
    }

    void parseFrame(const Json& spec, const std::string& where) {
        requireObject(spec, where);
        checkKeys(spec, where, {"objects", "meshes"});
        std::vector<std::pair<uint32_t, ObjectPose>> overrides;
        if (auto objects = spec.find("objects"); objects != spec.end()) {
            requireObject(*objects, where + ".objects");
            for (const auto& item : objects->items()) {
                const std::string at = where + ".objects." + item.key();
                auto object = objectIndex_.find(item.key());
                if (object == objectIndex_.end())
                    fail(at, "no object named \"" + item.key() + "\" in \"objects\"", ErrorCode::NotFound);
                requireObject(item.value(), at);
                checkKeys(item.value(), at, {"position", "rotation", "euler_deg", "scale"});
                ObjectPose pose = scene_.objects[object->second].pose;
                applyPose(item.value(), at, pose);
                overrides.emplace_back(object->second, pose);
            }
        }
        std::vector<DeformedMesh> deformed;
        if (auto meshes = spec.find("meshes"); meshes != spec.end()) {
            requireObject(*meshes, where + ".meshes");
            for (const auto& item : meshes->items()) {
                const std::string at = where + ".meshes." + item.key();
                auto mesh = meshIndex_.find(item.key());
                if (mesh == meshIndex_.end())
                    fail(at, "no mesh named \"" + item.key() + "\" in \"meshes\"", ErrorCode::NotFound);
                requireObject(item.value(), at);
                checkKeys(item.value(), at, {"vertices"});
                if (!item.value().contains("vertices") || !item.value()["vertices"].is_string())
                    fail(at, "needs \"vertices\": a mesh file path");
                DeformedMesh entry;
                entry.mesh = mesh->second;
                entry.file = resolve(item.value()["vertices"].get<std::string>()).string();
                Result<std::vector<glm::vec3>> positions =
                    loadVertexFile(entry.file, scene_.meshes[entry.mesh].data.positions.size());
                if (!positions.ok()) fail(at + ".vertices", positions.status().message, positions.status().code);
                entry.positions = std::move(positions.value());
                deformed.push_back(std::move(entry));
            }
        }
        addFrame(overrides);
        scene_.frames.back().deformed = std::move(deformed);
    }

    void addFrame(const std::vector<std::pair<uint32_t, ObjectPose>>& overrides) {
        SceneFrame frame;
        for (const SceneObject& object : scene_.objects) frame.poses.push_back(object.pose);
        for (const auto& [index, pose] : overrides) frame.poses[index] = pose;
        for (const ObjectPose& pose : frame.poses) frame.transforms.push_back(pose.matrix());
        scene_.frames.push_back(std::move(frame));
    }

    std::filesystem::path baseDir_;
    SceneDescription scene_;
    std::map<std::string, uint32_t> meshIndex_;
    std::map<std::string, uint32_t> objectIndex_;
};

// JSON allows an object to repeat a key, and the parser keeps the last: a scene author who
// writes "position" twice would silently lose the first. The parse callback tracks the JSON path
// (as the errors above spell it) and remembers the first repeated key.
class DuplicateKeyFinder {
public:
    bool operator()(int, nlohmann::detail::parse_event_t event, Json& parsed) {
        using Event = nlohmann::detail::parse_event_t;
        switch (event) {
            case Event::object_start:
            case Event::array_start:
                countElement();
                stack_.push_back({event == Event::object_start, {}, 0, {}});
                break;
            case Event::key:
                stack_.back().key = parsed.get<std::string>();
                if (!stack_.back().keys.insert(stack_.back().key).second && duplicate_.empty())
                    duplicate_ = path();
                break;
            case Event::value:
                countElement();
                break;
            case Event::object_end:
            case Event::array_end:
                stack_.pop_back();
                break;
        }
        return true;
    }
    // "objects[0].position", or empty when no object repeats a key.
    const std::string& duplicate() const { return duplicate_; }

private:
    struct Level {
        bool isObject;
        std::string key;       // objects: the key being read
        size_t elements;       // arrays: elements started so far
        std::set<std::string> keys;
    };
    void countElement() {
        if (!stack_.empty() && !stack_.back().isObject) ++stack_.back().elements;
    }
    std::string path() const {
        std::string out;
        for (const Level& level : stack_)
            out = level.isObject ? join(out, level.key) : out + "[" + std::to_string(level.elements - 1) + "]";
        return out;
    }
    std::vector<Level> stack_;
    std::string duplicate_;
};

Status sceneError(std::string_view displayName, ErrorCode code, const std::string& message) {
    std::string text = "scene \"" + std::string(displayName) + "\": " + message;
    // Messages quote the file's keys and names, which may hold a newline ("a\nb" in JSON): keep
    // the error on one line. Only control characters go; UTF-8 names stay readable.
    std::replace_if(text.begin(), text.end(), [](char c) { return (unsigned char)c < 0x20 || c == 0x7F; }, '?');
    // A name may be megabytes long: the message stays a readable line, cut between characters.
    constexpr size_t kMaxBytes = 512;
    if (text.size() > kMaxBytes) {
        size_t cut = kMaxBytes;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // inside a UTF-8 character
        text = text.substr(0, cut) + "... (" + std::to_string(text.size() - cut) + " more bytes)";
    }
    return makeError(code, std::move(text));
}

}  // namespace

glm::dmat4 ObjectPose::matrix() const {
    return glm::translate(glm::dmat4(1.0), position) * glm::mat4_cast(rotation) *
           glm::scale(glm::dmat4(1.0), glm::dvec3(scale));
}

Result<SceneDescription> parseScene(std::string_view text, const std::filesystem::path& baseDir,
                                    std::string_view displayName) {
    // Before nlohmann, whose parser and value copies recurse once per level.
    VKC_TRY(checkJsonDepth(text, "scene \"" + std::string(displayName) + "\""));
    Json root;
    DuplicateKeyFinder duplicates;
    try {
        root = Json::parse(text, std::ref(duplicates));
    } catch (const Json::parse_error& e) {
        return sceneError(displayName, ErrorCode::InvalidScene,
                          jsonLocation(text, e.byte) + ": bad JSON: " + jsonParseReason(e.what()));
    } catch (const Json::exception& e) {  // e.g. out_of_range.406 "number overflow parsing '1e999'"
        std::string reason = e.what();
        if (const size_t bracket = reason.find("] "); bracket != std::string::npos) reason = reason.substr(bracket + 2);
        return sceneError(displayName, ErrorCode::InvalidScene, "bad JSON: " + reason);
    }
    if (!duplicates.duplicate().empty())
        return sceneError(displayName, ErrorCode::InvalidScene,
                          duplicates.duplicate() + ": key given twice (JSON keeps only the last)");
    try {
        SceneDescription scene = Parser(baseDir).parse(root);
        scene.path = std::string(displayName);
        return scene;
    } catch (const SceneError& e) {
        return sceneError(displayName, e.code, e.message);
    } catch (const std::exception& e) {  // nlohmann type errors we did not foresee, bad_alloc
        return sceneError(displayName, ErrorCode::InvalidScene, e.what());
    }
}

Result<SceneDescription> loadScene(const std::filesystem::path& path) {
    // /dev/zero or a FIFO would be read forever.
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        return sceneError(path.string(), ErrorCode::IoError, "not a regular file");
    std::ifstream stream(path, std::ios::binary);
    if (!stream) {
        const bool exists = std::filesystem::exists(path, error);
        return sceneError(path.string(), exists ? ErrorCode::IoError : ErrorCode::NotFound,
                          exists ? "cannot open" : "not found");
    }
    std::ostringstream text;
    text << stream.rdbuf();
    return parseScene(text.str(), path.parent_path(), path.string());
}

}  // namespace vkc::io
