// Fuzzes checkMesh, describe() and requireMesh() on a mesh decoded from the input: any vertex and
// index count (a trailing partial triangle included), coordinates that are raw float bits (NaN,
// Inf, huge, denormal) or small integers (so coincident, collinear and shared vertices occur), and
// indices in range, one past it, or huge. Failures: a crash, a sanitizer report, a leak, a hang,
// or counts that disagree with a direct recount of the decoded mesh.
#include "vkcollide/mesh_checks.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

float coordinate(FuzzedDataProvider& input) {
    if (input.ConsumeBool()) {
        const uint32_t bits = input.ConsumeIntegral<uint32_t>();
        float value;
        std::memcpy(&value, &bits, sizeof value);
        return value;
    }
    return float(input.ConsumeIntegralInRange<int>(-4, 4));
}

uint32_t index(FuzzedDataProvider& input, size_t vertexCount) {
    const uint16_t pick = input.ConsumeIntegral<uint16_t>();
    if (pick >= 0xFFF0) return 0xFFFFFFFFu - (pick & 0xF);  // far out of range
    return uint32_t(pick % (vertexCount + 1));               // vertexCount itself is one past the end
}

void require(bool condition, const char* what) {
    if (condition) return;
    std::fprintf(stderr, "vkc-fuzz: checkMesh: %s\n", what);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    FuzzedDataProvider input(data, size);
    vkc::MeshData mesh;
    mesh.name = "fuzz";
    mesh.positions.resize(input.ConsumeIntegralInRange<size_t>(0, 512));
    mesh.indices.resize(input.ConsumeIntegralInRange<size_t>(0, 1536));
    for (glm::vec3& p : mesh.positions) p = {coordinate(input), coordinate(input), coordinate(input)};
    for (uint32_t& i : mesh.indices) i = index(input, mesh.positions.size());

    const vkc::MeshCheckReport report = vkc::checkMesh(mesh);
    for (const std::string& line : report.describe()) require(line.find('\n') == std::string::npos, "describe() line with a newline");
    for (bool flag : {false, true}) {
        const vkc::Status status = vkc::requireMesh(report, {flag, flag, flag, flag}, mesh.name);
        require(status.ok() || status.message.find('\n') == std::string::npos, "requireMesh message with a newline");
    }

    // Recounts of what the report must say exactly.
    size_t outOfRange = 0, nonFinite = 0;
    for (size_t i = 0; i < 3 * report.triangleCount; ++i)  // the trailing partial triangle is not checked
        outOfRange += mesh.indices[i] >= mesh.positions.size();
    for (const glm::vec3& p : mesh.positions) nonFinite += !(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
    require(report.vertexCount == mesh.positions.size(), "vertexCount");
    require(report.triangleCount == mesh.indices.size() / 3 && report.trailingIndices == mesh.indices.size() % 3, "triangle count");
    require(report.outOfRangeIndices == outOfRange, "outOfRangeIndices");
    require(report.nonFiniteVertices == nonFinite, "nonFiniteVertices");
    require(report.unreferencedVertices <= report.vertexCount, "unreferencedVertices");
    require(report.degenerateTriangles() <= report.triangleCount, "degenerate triangles");
    return 0;
}
