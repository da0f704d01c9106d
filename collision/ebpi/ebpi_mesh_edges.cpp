#include "collision/ebpi/ebpi_mesh_edges.h"

#include <algorithm>
#include <tuple>

namespace vkc {

EbpiMeshEdges ebpiMeshEdges(std::span<const uint32_t> indices) {
    // (a, b, triangle) for every triangle side, sorted so that an edge's sides are adjacent.
    struct Side {
        uint32_t a, b, triangle;
    };
    std::vector<Side> sides;
    sides.reserve(indices.size());
    for (uint32_t t = 0; t < indices.size() / 3; ++t)
        for (int k = 0; k < 3; ++k) {
            const uint32_t p = indices[3 * t + k], q = indices[3 * t + (k + 1) % 3];
            sides.push_back({std::min(p, q), std::max(p, q), t});
        }
    std::sort(sides.begin(), sides.end(), [](const Side& l, const Side& r) {
        return std::tie(l.a, l.b, l.triangle) < std::tie(r.a, r.b, r.triangle);
    });
    EbpiMeshEdges out;
    for (size_t i = 0; i < sides.size();) {
        size_t j = i;
        while (j < sides.size() && sides[j].a == sides[i].a && sides[j].b == sides[i].b) ++j;
        if (j - i == 2)
            out.edges.push_back({sides[i].a, sides[i].b, {sides[i].triangle, sides[i + 1].triangle}});
        else
            out.closedManifold = false;
        i = j;
    }
    return out;
}

}  // namespace vkc
