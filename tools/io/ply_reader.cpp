// readPly(): the whole file in memory; the header parsed into elements and typed properties;
// every element's least possible size checked against the bytes after the header; then one pass
// over the data, ASCII line by line or binary by declared sizes (byte-swapped for big endian).
#include "tools/io/ply_reader.h"

#include "tools/io/file_text.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vkc::io {
namespace {

enum class Type : uint8_t { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

struct TypeName {
    std::string_view name;
    Type type;
};

constexpr TypeName kTypeNames[] = {
    {"char", Type::Int8},     {"int8", Type::Int8},       {"uchar", Type::UInt8},   {"uint8", Type::UInt8},
    {"short", Type::Int16},   {"int16", Type::Int16},     {"ushort", Type::UInt16}, {"uint16", Type::UInt16},
    {"int", Type::Int32},     {"int32", Type::Int32},     {"uint", Type::UInt32},   {"uint32", Type::UInt32},
    {"float", Type::Float32}, {"float32", Type::Float32}, {"double", Type::Float64}, {"float64", Type::Float64},
};

std::optional<Type> typeNamed(std::string_view name) {
    for (const TypeName& entry : kTypeNames)
        if (entry.name == name) return entry.type;
    return std::nullopt;
}

size_t sizeOf(Type type) {
    switch (type) {
        case Type::Int8: case Type::UInt8: return 1;
        case Type::Int16: case Type::UInt16: return 2;
        case Type::Int32: case Type::UInt32: case Type::Float32: return 4;
        case Type::Float64: return 8;
    }
    return 0;
}

bool isInteger(Type type) { return type != Type::Float32 && type != Type::Float64; }

// The range of an integer type, for ASCII values.
std::pair<int64_t, int64_t> rangeOf(Type type) {
    switch (type) {
        case Type::Int8: return {INT8_MIN, INT8_MAX};
        case Type::UInt8: return {0, UINT8_MAX};
        case Type::Int16: return {INT16_MIN, INT16_MAX};
        case Type::UInt16: return {0, UINT16_MAX};
        case Type::Int32: return {INT32_MIN, INT32_MAX};
        default: return {0, UINT32_MAX};
    }
}

struct Property {
    std::string name;
    Type type = Type::Float32;  // lists: the entries' type
    bool list = false;
    Type countType = Type::UInt8;
};

struct Element {
    std::string name;
    uint64_t count = 0;
    std::vector<Property> properties;
    size_t line = 0;  // of its header line, for messages

    // The fewest bytes one item can take: binary, its scalars and list counts; ASCII, one digit
    // and one separator per property.
    uint64_t minBytes(bool ascii) const {
        uint64_t bytes = 0;
        for (const Property& p : properties) bytes += ascii ? 2 : sizeOf(p.list ? p.countType : p.type);
        return bytes;
    }
};

enum class Format { Ascii, BinaryLittle, BinaryBig };

struct Header {
    Format format = Format::Ascii;
    std::vector<Element> elements;
    size_t dataOffset = 0;  // first byte after the end_header line
    size_t lines = 0;       // header lines, end_header included
};

// What the mesh is made of: where x, y, z and the face list sit among their element's properties.
struct Layout {
    size_t vertexElement = SIZE_MAX, faceElement = SIZE_MAX;
    size_t coordinate[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
    size_t faceList = SIZE_MAX;
};

class PlyReader {
public:
    PlyReader(const std::filesystem::path& path, std::string_view bytes) : file_(meshFileName(path)), bytes_(bytes) {
        mesh_.name = path.string();
    }

    Result<MeshData> read() {
        VKC_TRY(parseHeader());
        VKC_TRY(checkSizes());
        VKC_TRY(findLayout());
        VKC_TRY(header_.format == Format::Ascii ? readAscii() : readBinary());
        return std::move(mesh_);
    }

private:
    Status lineError(size_t line, const std::string& what) const {
        return makeError(ErrorCode::IoError, file_ + ": line " + std::to_string(line) + ": " + what);
    }
    Status byteError(size_t byte, const std::string& what) const {
        return makeError(ErrorCode::IoError, file_ + ": byte " + std::to_string(byte) + ": " + what);
    }

    Status parseHeader() {
        const std::string_view text = bytes_.substr(0, kMaxPlyHeaderBytes);
        TextLines lines(text);
        std::vector<std::string_view> tokens;
        bool formatSeen = false;
        if (!lines.next(tokens) || lines.number() != 1 || tokens.size() != 1 || tokens[0] != "ply")
            return lineError(1, "not a PLY file (line 1 must be \"ply\")");
        while (true) {
            if (!lines.next(tokens)) {
                if (bytes_.size() > kMaxPlyHeaderBytes)
                    return lineError(lines.number(), "no end_header line in the first " +
                                                         std::to_string(kMaxPlyHeaderBytes) + " bytes");
                return lineError(lines.number() + 1, "end of file before end_header");
            }
            const size_t line = lines.number();
            const std::string_view keyword = tokens[0];
            if (keyword == "comment" || keyword == "obj_info") continue;
            if (keyword == "end_header") {
                if (tokens.size() != 1) return lineError(line, "text after end_header");
                if (!formatSeen) return lineError(line, "no format line before end_header");
                header_.dataOffset = text.size() - lines.bytesLeft();
                header_.lines = line;
                return Status::success();
            }
            if (keyword == "format") {
                if (formatSeen) return lineError(line, "a second format line");
                if (tokens.size() != 3 || tokens[2] != "1.0")
                    return lineError(line, "expected \"format ascii|binary_little_endian|binary_big_endian 1.0\"");
                if (tokens[1] == "ascii") header_.format = Format::Ascii;
                else if (tokens[1] == "binary_little_endian") header_.format = Format::BinaryLittle;
                else if (tokens[1] == "binary_big_endian") header_.format = Format::BinaryBig;
                else return lineError(line, "unknown format " + quotedToken(tokens[1]));
                formatSeen = true;
            } else if (keyword == "element") {
                Element element;
                if (tokens.size() != 3 || !parseInteger(tokens[2], element.count))
                    return lineError(line, "expected \"element <name> <count>\" with a count below 2^64");
                element.name = std::string(tokens[1]);
                element.line = line;
                header_.elements.push_back(std::move(element));
            } else if (keyword == "property") {
                if (header_.elements.empty()) return lineError(line, "property before any element");
                Property property;
                if (tokens.size() == 5 && tokens[1] == "list") {
                    const std::optional<Type> count = typeNamed(tokens[2]), entry = typeNamed(tokens[3]);
                    if (!count || !entry) return lineError(line, "unknown type in " + quotedToken(tokens[2]) + " " + quotedToken(tokens[3]));
                    if (!isInteger(*count)) return lineError(line, "a list's length type must be an integer type");
                    property = {std::string(tokens[4]), *entry, true, *count};
                } else if (tokens.size() == 3) {
                    const std::optional<Type> type = typeNamed(tokens[1]);
                    if (!type) return lineError(line, "unknown type " + quotedToken(tokens[1]));
                    property = {std::string(tokens[2]), *type, false, Type::UInt8};
                } else {
                    return lineError(line, "expected \"property <type> <name>\" or \"property list <type> <type> <name>\"");
                }
                header_.elements.back().properties.push_back(std::move(property));
            } else {
                return lineError(line, "unknown header keyword " + quotedToken(keyword));
            }
        }
    }

    Status findLayout() {
        for (size_t e = 0; e < header_.elements.size(); ++e) {
            const Element& element = header_.elements[e];
            if (element.name == "vertex" && layout_.vertexElement == SIZE_MAX) {
                layout_.vertexElement = e;
                for (size_t p = 0; p < element.properties.size(); ++p) {
                    const Property& property = element.properties[p];
                    const int axis = property.name == "x" ? 0 : property.name == "y" ? 1 : property.name == "z" ? 2 : -1;
                    if (axis < 0) continue;
                    if (property.list) return lineError(element.line, "vertex property \"" + property.name + "\" is a list");
                    layout_.coordinate[axis] = p;
                }
                for (int axis = 0; axis < 3; ++axis)
                    if (layout_.coordinate[axis] == SIZE_MAX)
                        return lineError(element.line, std::string("element vertex has no property ") + "xyz"[axis]);
                if (element.count >= std::numeric_limits<uint32_t>::max())
                    return lineError(element.line, "more than 2^32 - 2 vertices");
            } else if (element.name == "face" && layout_.faceElement == SIZE_MAX) {
                layout_.faceElement = e;
                for (size_t p = 0; p < element.properties.size(); ++p) {
                    const Property& property = element.properties[p];
                    if (property.name != "vertex_indices" && property.name != "vertex_index") continue;
                    if (!property.list || !isInteger(property.type))
                        return lineError(element.line, "face property \"" + property.name + "\" must be a list of integers");
                    layout_.faceList = p;
                }
                if (layout_.faceList == SIZE_MAX)
                    return lineError(element.line, "element face has no vertex_indices list");
            }
        }
        if (layout_.vertexElement == SIZE_MAX) return lineError(header_.lines, "no vertex element in the header");
        return Status::success();
    }

    // Before any allocation: each element's items, at their smallest, must fit in what follows.
    Status checkSizes() const {
        const bool ascii = header_.format == Format::Ascii;
        uint64_t left = bytes_.size() - header_.dataOffset;
        for (const Element& element : header_.elements) {
            if (element.count == 0) continue;
            const uint64_t least = element.minBytes(ascii);
            if (least == 0) return lineError(element.line, "element \"" + element.name + "\" has no properties");
            if (element.count > left / least)
                return lineError(element.line, "element \"" + element.name + "\" announces " + std::to_string(element.count) +
                                                   " items of at least " + std::to_string(least) + " bytes, but only " +
                                                   std::to_string(left) + " bytes are left");
            left -= element.count * least;
        }
        return Status::success();
    }

    void reserve(size_t e, uint64_t count) {
        if (e == layout_.vertexElement) mesh_.positions.reserve(count);
        if (e == layout_.faceElement) mesh_.indices.reserve(3 * count);
    }

    // Fan of a face's corners; a negative index becomes one that is surely out of range.
    void addFace(const std::vector<double>& corners) {
        auto index = [](double value) { return value < 0.0 ? std::numeric_limits<uint32_t>::max() : uint32_t(value); };
        for (size_t k = 1; k + 1 < corners.size(); ++k)
            mesh_.indices.insert(mesh_.indices.end(), {index(corners[0]), index(corners[k]), index(corners[k + 1])});
    }

    Status readAscii() {
        TextLines lines(bytes_.substr(header_.dataOffset), header_.lines + 1);
        std::vector<std::string_view> tokens;
        std::vector<double> values, corners;
        for (size_t e = 0; e < header_.elements.size(); ++e) {
            const Element& element = header_.elements[e];
            reserve(e, element.count);
            for (uint64_t item = 0; item < element.count; ++item) {
                const std::string what = element.name + " " + std::to_string(item);
                if (!lines.next(tokens))
                    return lineError(lines.number() + 1, "end of file in " + what + " of " + std::to_string(element.count));
                size_t at = 0;
                values.clear();
                for (const Property& property : element.properties) {
                    const bool wanted = e == layout_.faceElement && &property == &element.properties[layout_.faceList];
                    uint64_t length = 1;
                    if (property.list) {
                        double count = 0;
                        if (at >= tokens.size() || !parseValue(tokens[at++], property.countType, count) || count < 0)
                            return lineError(lines.number(), what + ": property \"" + property.name + "\": expected a list length");
                        length = uint64_t(count);
                        if (length > tokens.size() - at)
                            return lineError(lines.number(), what + ": list of " + std::to_string(length) + " entries, " +
                                                                 std::to_string(tokens.size() - at) + " values left on the line");
                        if (wanted) corners.clear();
                    }
                    for (uint64_t k = 0; k < length; ++k) {
                        double value = 0;
                        if (at >= tokens.size())
                            return lineError(lines.number(), what + ": no value for property \"" + property.name + "\"");
                        if (!parseValue(tokens[at], property.type, value))
                            return lineError(lines.number(), what + ": property \"" + property.name + "\": " +
                                                                 quotedToken(tokens[at]) + " is not a valid value");
                        ++at;
                        if (property.list && wanted) corners.push_back(value);
                        if (!property.list) values.push_back(value);
                    }
                    if (property.list) values.push_back(0.0);  // a placeholder keeps scalar positions aligned
                }
                if (at != tokens.size())
                    return lineError(lines.number(), what + ": " + std::to_string(tokens.size() - at) +
                                                         " values more than the header declares");
                store(e, values, corners);
            }
        }
        return Status::success();
    }

    // One ASCII value of a declared type: integers must be integers within the type's range.
    static bool parseValue(std::string_view token, Type type, double& value) {
        if (!isInteger(type)) return parseDouble(token, value);
        int64_t integer = 0;
        if (!parseInteger(token, integer)) return false;
        const auto [lo, hi] = rangeOf(type);
        if (integer < lo || integer > hi) return false;
        value = double(integer);
        return true;
    }

    // `values` holds one entry per property (lists as a placeholder), in declaration order.
    void store(size_t e, const std::vector<double>& values, const std::vector<double>& corners) {
        if (e == layout_.vertexElement)
            mesh_.positions.emplace_back(float(values[layout_.coordinate[0]]), float(values[layout_.coordinate[1]]),
                                         float(values[layout_.coordinate[2]]));
        else if (e == layout_.faceElement)
            addFace(corners);
    }

    double binaryValue(size_t at, Type type) const {
        unsigned char raw[8];
        const size_t size = sizeOf(type);
        std::memcpy(raw, bytes_.data() + at, size);
        if (header_.format == Format::BinaryBig) std::reverse(raw, raw + size);
        switch (type) {
            case Type::Int8: { int8_t v; std::memcpy(&v, raw, 1); return v; }
            case Type::UInt8: return raw[0];
            case Type::Int16: { int16_t v; std::memcpy(&v, raw, 2); return v; }
            case Type::UInt16: { uint16_t v; std::memcpy(&v, raw, 2); return v; }
            case Type::Int32: { int32_t v; std::memcpy(&v, raw, 4); return v; }
            case Type::UInt32: { uint32_t v; std::memcpy(&v, raw, 4); return v; }
            case Type::Float32: { float v; std::memcpy(&v, raw, 4); return v; }
            case Type::Float64: { double v; std::memcpy(&v, raw, 8); return v; }
        }
        return 0.0;
    }

    Status readBinary() {
        size_t at = header_.dataOffset;
        std::vector<double> values, corners;
        for (size_t e = 0; e < header_.elements.size(); ++e) {
            const Element& element = header_.elements[e];
            reserve(e, element.count);
            for (uint64_t item = 0; item < element.count; ++item) {
                values.clear();
                for (size_t p = 0; p < element.properties.size(); ++p) {
                    const Property& property = element.properties[p];
                    const size_t scalar = sizeOf(property.list ? property.countType : property.type);
                    if (scalar > bytes_.size() - at)
                        return byteError(at, "end of file in " + element.name + " " + std::to_string(item) + " of " +
                                                 std::to_string(element.count));
                    const double first = binaryValue(at, property.list ? property.countType : property.type);
                    at += scalar;
                    if (!property.list) {
                        values.push_back(first);
                        continue;
                    }
                    values.push_back(0.0);
                    if (first < 0)
                        return byteError(at - scalar, element.name + " " + std::to_string(item) + ": negative list length");
                    const uint64_t length = uint64_t(first), entry = sizeOf(property.type);
                    if (length > (bytes_.size() - at) / entry)
                        return byteError(at - scalar, element.name + " " + std::to_string(item) + ": list of " +
                                                          std::to_string(length) + " entries runs past the end of the file");
                    if (e == layout_.faceElement && p == layout_.faceList) {
                        corners.resize(length);
                        for (uint64_t k = 0; k < length; ++k) corners[k] = binaryValue(at + k * entry, property.type);
                    }
                    at += length * entry;
                }
                store(e, values, corners);
            }
        }
        return Status::success();
    }

    std::string file_;
    std::string_view bytes_;
    Header header_;
    Layout layout_;
    MeshData mesh_;
};

}  // namespace

Result<MeshData> readPly(const std::filesystem::path& path) {
    Result<std::string> bytes = readWholeFile(path);
    if (!bytes.ok()) return bytes.status();
    return PlyReader(path, *bytes).read();
}

}  // namespace vkc::io
