// readGltf(): GLB container → JSON text (+ BIN chunk); nesting checked, then nlohmann parses;
// nodes walked from the scene's roots with an explicit stack; each primitive's accessors bounds-
// checked against their bufferView and buffer before a single element is read. Errors are thrown
// as GltfError inside this file (tools code) and become a Status at readGltf().
#include "tools/io/gltf_reader.h"

#include "tools/io/file_text.h"
#include "tools/io/json_depth.h"

#include <nlohmann/json.hpp>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vkc::io {
namespace {

using Json = nlohmann::json;

struct GltfError {
    std::string message;  // without the `mesh file "..."` prefix
};

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw GltfError{where + ": " + what}; }

std::string item(const char* array, uint64_t index) { return std::string(array) + "[" + std::to_string(index) + "]"; }

uint32_t readU32(std::string_view bytes, size_t at) {
    uint32_t value = 0;
    std::memcpy(&value, bytes.data() + at, 4);  // GLB is little endian, like every machine we build for
    return value;
}

// Strict base64 (RFC 4648, '=' padding optional).
bool decodeBase64(std::string_view text, std::string& out) {
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+') return 62;
        if (c == '/') return 63;
        return -1;
    };
    while (!text.empty() && text.back() == '=') text.remove_suffix(1);
    if (text.size() % 4 == 1) return false;
    out.clear();
    out.reserve(text.size() / 4 * 3 + 2);
    uint32_t bits = 0;
    int count = 0;
    for (char c : text) {
        const int v = value(c);
        if (v < 0) return false;
        bits = (bits << 6) | uint32_t(v);
        if (++count == 4) {
            out += char(bits >> 16);
            out += char(bits >> 8);
            out += char(bits);
            bits = 0;
            count = 0;
        }
    }
    if (count == 2) out += char(bits >> 4);
    if (count == 3) {
        out += char(bits >> 10);
        out += char(bits >> 2);
    }
    return true;
}

// "%20" → ' ' in relative buffer URIs.
std::string percentDecoded(std::string_view uri) {
    std::string out;
    for (size_t i = 0; i < uri.size(); ++i) {
        unsigned value = 0;
        if (uri[i] == '%' && i + 2 < uri.size() &&
            std::from_chars(uri.data() + i + 1, uri.data() + i + 3, value, 16).ptr == uri.data() + i + 3) {
            out += char(value);
            i += 2;
        } else {
            out += uri[i];
        }
    }
    return out;
}

const Json& member(const Json& object, const char* key) {
    static const Json kNull;
    const auto it = object.find(key);
    return it == object.end() ? kNull : *it;
}

// An unsigned integer; below `limit` (an array's size) when one is given.
uint64_t unsignedAt(const Json& value, const std::string& where, std::optional<uint64_t> limit = std::nullopt) {
    if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<int64_t>() >= 0))
        fail(where, "expected an unsigned integer");
    const uint64_t v = value.get<uint64_t>();
    if (limit && v >= *limit) fail(where, std::to_string(v) + " is out of range (" + std::to_string(*limit) + " entries)");
    return v;
}

double numberAt(const Json& value, const std::string& where) {
    if (!value.is_number()) fail(where, "expected a number");
    return value.get<double>();
}

// A top-level array ("nodes", "meshes", ...), empty when absent.
const Json& topArray(const Json& root, const char* key) {
    static const Json kEmpty = Json::array();
    const Json& value = member(root, key);
    if (value.is_null()) return kEmpty;
    if (!value.is_array()) fail(key, "expected an array");
    return value;
}

const Json& objectAt(const Json& array, const char* name, uint64_t index) {
    const Json& value = array[index];
    if (!value.is_object()) fail(item(name, index), "expected an object");
    return value;
}

struct Accessor {
    const unsigned char* data = nullptr;  // first element
    uint64_t count = 0;
    size_t stride = 0;
    uint32_t componentType = 0;
};

class GltfReader {
public:
    explicit GltfReader(const std::filesystem::path& path) : path_(path) {}

    MeshData read(std::string_view bytes) {
        std::string_view json = bytes;
        if (bytes.size() >= 4 && bytes.substr(0, 4) == "glTF") json = splitGlb(bytes);
        const Status depth = checkJsonDepth(json, "JSON", ErrorCode::IoError);
        if (!depth.ok()) throw GltfError{depth.message};
        try {
            root_ = Json::parse(json);
        } catch (const Json::exception& e) {
            const auto* parse = dynamic_cast<const Json::parse_error*>(&e);
            throw GltfError{"JSON " + (parse ? jsonLocation(json, parse->byte) + ": " : std::string()) +
                            jsonParseReason(e.what())};
        }
        if (!root_.is_object()) fail("JSON", "the top level is not an object");
        // Required extensions (Draco, meshopt, quantization) change what accessors mean.
        const Json& required = member(root_, "extensionsRequired");
        if (required.is_array() && !required.empty())
            fail("extensionsRequired", (required[0].is_string() ? quotedToken(required[0].get<std::string>()) : std::string("an entry")) +
                                           " is not supported");
        nodes_ = &topArray(root_, "nodes");
        meshes_ = &topArray(root_, "meshes");
        mesh_.name = path_.string();
        std::vector<bool> placed(meshes_->size(), false);
        walkScene(placed);
        for (size_t m = 0; m < placed.size(); ++m)
            if (!placed[m]) appendMesh(m, glm::dmat4(1.0));
        return std::move(mesh_);
    }

private:
    // GLB: 12-byte header, a JSON chunk, then optionally a BIN chunk (glTF 2.0 section 4.4).
    std::string_view splitGlb(std::string_view bytes) {
        if (bytes.size() < 20) fail("GLB", "shorter than its 12-byte header and one chunk header");
        if (readU32(bytes, 4) != 2) fail("GLB", "version " + std::to_string(readU32(bytes, 4)) + ", expected 2");
        if (readU32(bytes, 8) != bytes.size())
            fail("GLB", "header says " + std::to_string(readU32(bytes, 8)) + " bytes, the file has " + std::to_string(bytes.size()));
        const uint64_t jsonLength = readU32(bytes, 12);
        if (readU32(bytes, 16) != 0x4E4F534Au) fail("GLB", "the first chunk is not JSON");
        if (jsonLength > bytes.size() - 20) fail("GLB", "the JSON chunk runs past the end of the file");
        const size_t next = 20 + jsonLength;
        if (bytes.size() - next >= 8 && readU32(bytes, next + 4) == 0x004E4942u) {
            const uint64_t binLength = readU32(bytes, next);
            if (binLength > bytes.size() - next - 8) fail("GLB", "the BIN chunk runs past the end of the file");
            bin_ = bytes.substr(next + 8, binLength);
            hasBin_ = true;
        }
        return bytes.substr(20, jsonLength);
    }

    // Buffer `index`'s bytes (exactly byteLength of them), loaded once.
    std::string_view buffer(uint64_t index) {
        const Json& buffers = topArray(root_, "buffers");
        const std::string where = item("buffers", index);
        if (index >= buffers.size()) fail(where, "no such buffer (" + std::to_string(buffers.size()) + " buffers)");
        if (auto it = buffers_.find(index); it != buffers_.end()) return it->second;
        const Json& spec = objectAt(buffers, "buffers", index);
        const uint64_t length = unsignedAt(member(spec, "byteLength"), where + ".byteLength");
        const Json& uri = member(spec, "uri");
        std::string data;
        if (uri.is_null()) {
            if (index != 0 || !hasBin_) fail(where, "no uri, and it is not a GLB file's BIN chunk");
            data.assign(bin_);
        } else {
            if (!uri.is_string()) fail(where + ".uri", "expected a string");
            const std::string_view text = uri.get_ref<const std::string&>();
            if (text.substr(0, 5) == "data:") {
                const size_t comma = text.find(',');
                if (comma == std::string_view::npos || text.substr(0, comma).find(";base64") == std::string_view::npos)
                    fail(where + ".uri", "only base64 data URIs are supported");
                if (!decodeBase64(text.substr(comma + 1), data)) fail(where + ".uri", "invalid base64");
            } else {
                // Only files beside the glTF (or below it): a scene must not read anything else
                // on the machine (absolute paths, schemes such as file:, or a way out through "..").
                const std::filesystem::path relative = std::filesystem::path(percentDecoded(text)).lexically_normal();
                if (text.find(':') != std::string_view::npos || relative.has_root_path() || relative.empty() ||
                    *relative.begin() == "..")
                    fail(where + ".uri", "must be a relative path inside the glTF file's folder");
                Result<std::string> file = readWholeFile(path_.parent_path() / relative);
                if (!file.ok()) fail(where + ".uri", file.status().message);
                data = std::move(*file);
            }
        }
        if (data.size() < length)
            fail(where, "byteLength " + std::to_string(length) + " but only " + std::to_string(data.size()) + " bytes of data");
        data.resize(length);
        return buffers_.emplace(index, std::move(data)).first->second;
    }

    // Accessor `index`, checked: every element lies inside its bufferView, which lies in its buffer.
    Accessor accessor(uint64_t index, const char* type, std::initializer_list<uint32_t> componentTypes, const char* role) {
        const Json& accessors = topArray(root_, "accessors");
        const std::string where = item("accessors", index);
        if (index >= accessors.size()) fail(where, "no such accessor (" + std::to_string(accessors.size()) + " accessors)");
        const Json& spec = objectAt(accessors, "accessors", index);
        if (spec.contains("sparse")) fail(where, "sparse accessors are not supported");
        if (member(spec, "type") != type) fail(where, std::string(role) + " must be of type " + type);
        Accessor out;
        out.componentType = uint32_t(unsignedAt(member(spec, "componentType"), where + ".componentType", 1u << 16));
        bool known = false;
        for (uint32_t t : componentTypes) known = known || t == out.componentType;
        if (!known) fail(where, std::string(role) + ": component type " + std::to_string(out.componentType) + " is not supported");
        const size_t componentSize = out.componentType == 5126 || out.componentType == 5125 ? 4 : out.componentType == 5123 ? 2 : 1;
        const size_t elementSize = componentSize * (std::string_view(type) == "VEC3" ? 3 : 1);
        out.count = unsignedAt(member(spec, "count"), where + ".count");
        if (!spec.contains("bufferView")) fail(where, "no bufferView (an all-zero accessor) is not supported");

        const Json& views = topArray(root_, "bufferViews");
        const uint64_t viewIndex = unsignedAt(member(spec, "bufferView"), where + ".bufferView", views.size());
        const std::string viewWhere = item("bufferViews", viewIndex);
        const Json& view = objectAt(views, "bufferViews", viewIndex);
        const std::string_view data = buffer(unsignedAt(member(view, "buffer"), viewWhere + ".buffer"));
        const uint64_t viewOffset = view.contains("byteOffset") ? unsignedAt(view["byteOffset"], viewWhere + ".byteOffset") : 0;
        const uint64_t viewLength = unsignedAt(member(view, "byteLength"), viewWhere + ".byteLength");
        if (viewOffset > data.size() || viewLength > data.size() - viewOffset)
            fail(viewWhere, "bytes [" + std::to_string(viewOffset) + ", +" + std::to_string(viewLength) +
                                ") run past its buffer's " + std::to_string(data.size()) + " bytes");
        out.stride = elementSize;
        if (view.contains("byteStride")) {
            out.stride = size_t(unsignedAt(view["byteStride"], viewWhere + ".byteStride", 253));
            if (out.stride < elementSize) fail(viewWhere, "byteStride " + std::to_string(out.stride) + " is smaller than an element");
        }
        const uint64_t offset = spec.contains("byteOffset") ? unsignedAt(spec["byteOffset"], where + ".byteOffset") : 0;
        // The last element must end inside the view: offset + stride * (count - 1) + size <= length.
        const bool fits = out.count == 0 ||
            (offset <= viewLength && elementSize <= viewLength - offset &&
             out.count - 1 <= (viewLength - offset - elementSize) / out.stride);
        if (!fits)
            fail(where, std::to_string(out.count) + " elements from byte " + std::to_string(offset) +
                            " run past its bufferView's " + std::to_string(viewLength) + " bytes");
        out.data = reinterpret_cast<const unsigned char*>(data.data()) + viewOffset + offset;
        return out;
    }

    static uint32_t indexAt(const Accessor& a, uint64_t i) {
        const unsigned char* p = a.data + i * a.stride;
        if (a.componentType == 5121) return p[0];
        if (a.componentType == 5123) {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return v;
        }
        uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }

    void appendMesh(uint64_t meshIndex, const glm::dmat4& transform) {
        const std::string where = item("meshes", meshIndex);
        const Json& primitives = member(objectAt(*meshes_, "meshes", meshIndex), "primitives");
        if (!primitives.is_array()) fail(where + ".primitives", "expected an array");
        const bool mirrored = glm::determinant(transform) < 0.0;
        for (size_t p = 0; p < primitives.size(); ++p) {
            const std::string at = where + ".primitives[" + std::to_string(p) + "]";
            const Json& primitive = primitives[p];
            if (!primitive.is_object()) fail(at, "expected an object");
            const uint64_t mode = primitive.contains("mode") ? unsignedAt(primitive["mode"], at + ".mode", 7) : 4;
            if (mode < 4) continue;  // points and lines
            const Accessor positions =
                accessor(unsignedAt(member(member(primitive, "attributes"), "POSITION"), at + ".attributes.POSITION"),
                         "VEC3", {5126}, "POSITION");
            Accessor indices;
            if (primitive.contains("indices"))
                indices = accessor(unsignedAt(primitive["indices"], at + ".indices"), "SCALAR", {5121, 5123, 5125}, "indices");
            const uint64_t corners = primitive.contains("indices") ? indices.count : positions.count;
            const uint64_t triangles = corners < 3 ? 0 : mode == 4 ? corners / 3 : corners - 2;
            if (mesh_.positions.size() + positions.count > kMaxGltfVertices ||
                mesh_.indices.size() / 3 + triangles > kMaxGltfTriangles)
                fail(at, "with its instances the file holds more than " + std::to_string(kMaxGltfTriangles) +
                             " triangles or " + std::to_string(kMaxGltfVertices) + " vertices");

            const uint32_t base = uint32_t(mesh_.positions.size());
            for (uint64_t v = 0; v < positions.count; ++v) {
                float xyz[3];
                std::memcpy(xyz, positions.data + v * positions.stride, sizeof xyz);
                const glm::dvec4 world = transform * glm::dvec4(xyz[0], xyz[1], xyz[2], 1.0);
                mesh_.positions.emplace_back(float(world.x), float(world.y), float(world.z));
            }
            // An index past this primitive's vertices would land in the next one; make it plainly
            // out of range instead, so that checkMesh reports it.
            auto corner = [&](uint64_t i) {
                const uint64_t local = primitive.contains("indices") ? indexAt(indices, i) : i;
                return local < positions.count ? uint32_t(base + local) : std::numeric_limits<uint32_t>::max();
            };
            for (uint64_t t = 0; t < triangles; ++t) {
                // Section 3.7.2.1: strips alternate winding; fans turn about corner 0.
                uint64_t k[3] = {3 * t, 3 * t + 1, 3 * t + 2};
                if (mode == 5) k[0] = t, k[1] = t + 1 + t % 2, k[2] = t + 2 - t % 2;
                if (mode == 6) k[0] = t + 1, k[1] = t + 2, k[2] = 0;
                if (mirrored) std::swap(k[1], k[2]);
                mesh_.indices.insert(mesh_.indices.end(), {corner(k[0]), corner(k[1]), corner(k[2])});
            }
        }
    }

    glm::dmat4 localTransform(const Json& node, const std::string& where) const {
        if (node.contains("matrix")) {
            const Json& m = node["matrix"];
            if (!m.is_array() || m.size() != 16) fail(where + ".matrix", "expected 16 numbers");
            double values[16];
            for (size_t i = 0; i < 16; ++i) values[i] = numberAt(m[i], where + ".matrix");
            return glm::make_mat4(values);  // both column-major
        }
        auto vector = [&](const char* key, size_t size, std::initializer_list<double> fallback) {
            std::vector<double> out(fallback);
            if (!node.contains(key)) return out;
            const Json& v = node[key];
            if (!v.is_array() || v.size() != size) fail(where + "." + key, "expected " + std::to_string(size) + " numbers");
            for (size_t i = 0; i < size; ++i) out[i] = numberAt(v[i], where + "." + key);
            return out;
        };
        const std::vector<double> t = vector("translation", 3, {0, 0, 0});
        const std::vector<double> r = vector("rotation", 4, {0, 0, 0, 1});  // x, y, z, w
        const std::vector<double> s = vector("scale", 3, {1, 1, 1});
        return glm::translate(glm::dmat4(1.0), glm::dvec3(t[0], t[1], t[2])) *
               glm::mat4_cast(glm::dquat(r[3], r[0], r[1], r[2])) * glm::scale(glm::dmat4(1.0), glm::dvec3(s[0], s[1], s[2]));
    }

    std::vector<uint64_t> sceneRoots() const {
        const Json& scenes = topArray(root_, "scenes");
        std::vector<uint64_t> roots;
        if (scenes.empty()) {
            // No scene: every node that is nobody's child is a root.
            std::vector<bool> child(nodes_->size(), false);
            for (size_t n = 0; n < nodes_->size(); ++n)
                for (const Json& c : member(objectAt(*nodes_, "nodes", n), "children"))
                    child[unsignedAt(c, item("nodes", n) + ".children", nodes_->size())] = true;
            for (size_t n = 0; n < nodes_->size(); ++n)
                if (!child[n]) roots.push_back(n);
            return roots;
        }
        const uint64_t scene = root_.contains("scene") ? unsignedAt(root_["scene"], "scene", scenes.size()) : 0;
        const std::string where = item("scenes", scene);
        const Json& list = member(objectAt(scenes, "scenes", scene), "nodes");
        if (!list.is_null() && !list.is_array()) fail(where + ".nodes", "expected an array");
        for (const Json& n : list) roots.push_back(unsignedAt(n, where + ".nodes", nodes_->size()));
        return roots;
    }

    void walkScene(std::vector<bool>& placed) {
        struct Pending {
            uint64_t node;
            glm::dmat4 parent;
            size_t depth;
        };
        std::vector<Pending> stack;
        const std::vector<uint64_t> roots = sceneRoots();
        for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back({*it, glm::dmat4(1.0), 1});
        std::vector<bool> visited(nodes_->size(), false);
        while (!stack.empty()) {
            const Pending next = stack.back();
            stack.pop_back();
            const std::string where = item("nodes", next.node);
            // Each node once: a cycle would never end, and shared subtrees could multiply the work.
            if (visited[next.node]) fail(where, "reached twice (a cycle, or a node with two parents)");
            visited[next.node] = true;
            if (next.depth > kMaxGltfNodeDepth)
                fail(where, "node hierarchy deeper than " + std::to_string(kMaxGltfNodeDepth) + " levels");
            const Json& node = objectAt(*nodes_, "nodes", next.node);
            const glm::dmat4 transform = next.parent * localTransform(node, where);
            if (node.contains("mesh")) {
                const uint64_t m = unsignedAt(node["mesh"], where + ".mesh", meshes_->size());
                placed[m] = true;
                appendMesh(m, transform);
            }
            const Json& children = member(node, "children");
            if (!children.is_null() && !children.is_array()) fail(where + ".children", "expected an array");
            for (size_t c = children.size(); c-- > 0;)
                stack.push_back({unsignedAt(children[c], where + ".children", nodes_->size()), transform, next.depth + 1});
        }
    }

    std::filesystem::path path_;
    Json root_;
    const Json* nodes_ = nullptr;
    const Json* meshes_ = nullptr;
    std::string_view bin_;
    bool hasBin_ = false;
    std::map<uint64_t, std::string> buffers_;
    MeshData mesh_;
};

}  // namespace

Result<MeshData> readGltf(const std::filesystem::path& path) {
    Result<std::string> bytes = readWholeFile(path);
    if (!bytes.ok()) return bytes.status();
    try {
        return GltfReader(path).read(*bytes);
    } catch (const GltfError& e) {
        return makeError(ErrorCode::IoError, meshFileName(path) + ": " + e.message);
    } catch (const Json::exception& e) {  // a type we did not check for
        return makeError(ErrorCode::IoError, meshFileName(path) + ": " + jsonParseReason(e.what()));
    }
}

}  // namespace vkc::io
