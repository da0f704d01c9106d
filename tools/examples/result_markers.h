// What the example draws for a frame's results besides the tints: a marker at every contact or
// edge point (and one along the point's normal where the method gives normals), and a bar per
// measured volume. All lie flat just above the scene's top, as an overlay: the camera looks down
// -z, so no object hides them (a point inside the overlap would be).
#pragma once

#include "tools/examples/example_view.h"
#include "tools/examples/frame_renderer.h"
#include "vkcollide/results.h"

#include <span>
#include <vector>

namespace vkc::example {

// The marker (an octahedron) and the bar (a cube), added to the host's meshes after the scene's.
MeshData markerMesh();
MeshData volumeBarMesh();

struct ResultMarkers {
    uint32_t markerMesh = 0, barMesh = 0;  // host mesh indices
    float top = 0.0f;                      // world z of the overlay
    float size = 0.0f;                     // a marker's half width, world units
};

// The overlay above `objects` (their rest boxes grown by `margin` of the scene's size, the room the
// camera leaves for the deformation).
ResultMarkers resultMarkers(std::span<const PlacedMesh> objects, float margin, uint32_t markerMesh, uint32_t barMesh);

// At most this many points are marked per frame, shared by the pairs, spread over each's points.
inline constexpr size_t kMostMarkedPoints = 256;

// Appends the markers of `results` (object centres for the volume bars: `centres` per object).
void appendResultMarkers(const ResultMarkers& markers, const FrameResults& results, std::span<const glm::vec3> centres,
                         std::vector<ObjectDraw>& draws);

}  // namespace vkc::example
