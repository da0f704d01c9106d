// What a detection returns, per frame: the colliding object pairs and whatever the method computes
// for each. A field a method does not compute stays empty (std::nullopt / empty vector); reports
// omit it rather than write zeros.
#pragma once

#include <glm/vec3.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace vkc {

struct PairResult {
    uint32_t a = 0;  // object index, a < b
    uint32_t b = 0;
    std::optional<uint64_t> trianglePairs;              // exact count of intersecting triangle pairs
    std::vector<std::array<uint32_t, 2>> trianglePairList;  // [triangle of a, triangle of b]
    std::optional<double> volume;                       // intersection volume, world units cubed
    std::optional<double> volumeErrorBound;             // |volume - exact| <= this
    std::vector<glm::vec3> points;                      // world-space collision points
    std::vector<glm::vec3> normals;                     // parallel to points, when computed
    std::vector<uint32_t> penetrating;                  // objects whose edges enter the other
    std::vector<uint32_t> penetrated;                   // objects entered by the other's edges
    std::vector<uint32_t> insideVertices;               // vertices of one object inside the other
    bool truncated = false;                             // a capacity was hit; counts stay exact
};

struct FrameResults {
    bool colliding = false;
    std::vector<PairResult> pairs;                      // colliding pairs only, sorted by (a, b)
    std::map<std::string, double> gpuTimingsMs;         // per pass label
    std::vector<std::string> warnings;                  // e.g. an open mesh seen by an image method
    bool truncated = false;  // a capacity or iteration limit was hit: pairs or points may be missing
};

}  // namespace vkc
