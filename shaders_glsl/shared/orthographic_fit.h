// The orthographic views of an image-space frame (paper 1, section 6.5: precision is one pixel of
// the view, so the view is as tight as the region where interference can happen), fitted on the GPU
// by the image-space frame setup (image_frame_setup.comp); C++ sees it too, for its tests.
// xy is fitted to the candidate pairs' box overlaps (padded), depth to the drawn objects' boxes
// whole, so that no drawn triangle in front of an edge point is clipped away (it would break the
// count). Views look along z, x, y; each maps world axes to clip axes by a cyclic permutation with
// positive scales, so the determinant is positive and outward-facing counter-clockwise triangles
// stay front-facing.
#ifndef VKC_SHARED_ORTHOGRAPHIC_FIT_H
#define VKC_SHARED_ORTHOGRAPHIC_FIT_H

#include "glsl_cpp.h"

#ifdef __cplusplus
#include <glm/common.hpp>
#include <glm/vec3.hpp>
#define VKC_FIT_INLINE inline
#else
#define VKC_FIT_INLINE
#endif

VKC_NAMESPACE_BEGIN

#ifdef __cplusplus
using vec3 = glm::vec3;
using glm::max;
#endif

struct OrthographicRegion {
    vec3 roiMin;    // the union of the candidate pairs' box overlaps
    vec3 roiMax;
    vec3 depthMin;  // the union of the drawn objects' boxes
    vec3 depthMax;
};

// Boxes that only touch give a flat region: every axis gets a floor (a thousandth of the drawn
// objects' extent) so the view stays invertible; xy grows by `paddingPixels`, depth a little beyond
// the objects so that no triangle touches the clip planes.
VKC_FIT_INLINE OrthographicRegion padOrthographicRegion(OrthographicRegion r, float paddingPixels, uint resolution) {
    vec3 size = r.depthMax - r.depthMin;
    float sceneSize = max(max(size.x, size.y), max(size.z, 1e-6f));
    vec3 extent = max(r.roiMax - r.roiMin, vec3(sceneSize * 1e-3f));
    vec3 pad = extent * (paddingPixels / float(resolution));
    r.roiMin -= pad;
    r.roiMax += pad;
    r.depthMin -= vec3(sceneSize * 1e-3f);
    r.depthMax += vec3(sceneSize * 1e-3f);
    return r;
}

struct OrthographicViewGpu {
    mat4 worldToClip;
    mat4 clipToWorld;
    float pixelSize;  // world units: the larger pixel side
};

// View `view` (0: along z, 1: along x, 2: along y) of a padded region; rays travel along +axis.
VKC_FIT_INLINE OrthographicViewGpu orthographicView(OrthographicRegion r, uint view, uint resolution) {
    int u = int(view), v = int((view + 1u) % 3u), d = int((view + 2u) % 3u);
    float width = r.roiMax[u] - r.roiMin[u], height = r.roiMax[v] - r.roiMin[v];
    float depth = r.depthMax[d] - r.depthMin[d];
    OrthographicViewGpu fit;
    fit.worldToClip = mat4(0.0f);  // [column][row]
    fit.worldToClip[u][0] = 2.0f / width;
    fit.worldToClip[3][0] = -2.0f * r.roiMin[u] / width - 1.0f;
    fit.worldToClip[v][1] = 2.0f / height;
    fit.worldToClip[3][1] = -2.0f * r.roiMin[v] / height - 1.0f;
    fit.worldToClip[d][2] = 1.0f / depth;
    fit.worldToClip[3][2] = -r.depthMin[d] / depth;
    fit.worldToClip[3][3] = 1.0f;
    // The inverse in closed form: clip x = 2 (w_u - roiMin_u) / width - 1, z = (w_d - depthMin_d) / depth.
    fit.clipToWorld = mat4(0.0f);
    fit.clipToWorld[0][u] = 0.5f * width;
    fit.clipToWorld[1][v] = 0.5f * height;
    fit.clipToWorld[2][d] = depth;
    fit.clipToWorld[3][u] = r.roiMin[u] + 0.5f * width;
    fit.clipToWorld[3][v] = r.roiMin[v] + 0.5f * height;
    fit.clipToWorld[3][d] = r.depthMin[d];
    fit.clipToWorld[3][3] = 1.0f;
    fit.pixelSize = max(width, height) / float(resolution);
    return fit;
}

VKC_NAMESPACE_END

#endif
