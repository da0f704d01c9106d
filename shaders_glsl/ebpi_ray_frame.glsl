// GLSL only: an object's vertex in a view's ray frame, in double, with the arithmetic and order of
// ebpiRayFramePoint (collision/ebpi/ebpi_ray_mesh.cpp) and no FMA contraction (precise), so the
// GPU's positions equal the CPU reference's bit for bit.
#ifndef VKC_EBPI_RAY_FRAME_GLSL
#define VKC_EBPI_RAY_FRAME_GLSL

#include "shared/ebpi_image.h"
#include "vertex_fetch.glsl"

// ebpiLocalPoint: the point placed relative to the pair's origin, before the rotation.
dvec3 ebpiLocalPoint(mat4 objectToLocal, vec3 p) {
    dvec3 q = dvec3(p);
    precise dvec3 world;
    for (int k = 0; k < 3; ++k)
        world[k] = ((double(objectToLocal[0][k]) * q.x + double(objectToLocal[1][k]) * q.y) +
                    double(objectToLocal[2][k]) * q.z) + double(objectToLocal[3][k]);
    return world;
}

dvec3 ebpiRayFramePoint(mat4 objectToLocal, EbpiViewGpu view, vec3 p) {
    dvec3 world = ebpiLocalPoint(objectToLocal, p);
    precise dvec3 rotated;
    for (int k = 0; k < 3; ++k)
        rotated[k] = (view.rotation[3 * k] * world.x + view.rotation[3 * k + 1] * world.y) +
                     view.rotation[3 * k + 2] * world.z;
    return rotated;
}

dvec3 ebpiFetchRayFrame(ObjectGpu object, EbpiViewGpu view, uint vertex) {
    return ebpiRayFramePoint(object.objectToLocal, view, fetchVertex(object.vertices, vertex));
}
#endif
