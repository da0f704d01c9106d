// Method `ebpi` (paper 5, Sec. 4.1-4.2, Alg. 1-2 made conservative): each mesh edge's projected
// segment and bound polynomial in one view, computed exactly as ebpiEdgeTerms (collision/ebpi/
// ebpi_edge_terms.cpp) does with EbpiSteepWallDepth::MeshDepthExtent: the same double operations
// in the same order, precise (no FMA contraction), so the terms equal the CPU's bit for bit where
// the device's double division and square root are correctly rounded (lavapipe's are); then
// added into every pixel of the view it touches (ebpi_term_raster.glsl, as buildEbpiFixedImage),
// straight from the thread that made it: no list of terms (a million-triangle pair would need
// hundreds of megabytes of them). An edge that misses the view's region box (and borders no steep
// face) adds nothing. Grid: y = job (object in a view), x = edge of the job (grid-stride). Reads
// the depth extents of ebpi_depth_extent.comp.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_crease_bound.glsl"
#include "ebpi_ray_frame.glsl"
#include "ebpi_term_raster.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint kGroupSize = kEbpiImageGroupSize;

layout(set = 0, binding = kEbpiImageBindingObjects, std430) readonly buffer Objects { ObjectGpu objects[]; };
layout(set = 0, binding = kEbpiImageBindingViews, std430) readonly buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiImageBindingJobs, std430) readonly buffer Jobs { EbpiImageJobGpu jobs[]; };
layout(set = 0, binding = kEbpiImageBindingEdges, std430) readonly buffer Edges { EbpiMeshEdgeGpu edges[]; };
layout(set = 0, binding = kEbpiImageBindingExtents, std430) readonly buffer Extents { EbpiDepthExtentGpu extents[]; };

layout(push_constant) uniform Push { EbpiImagePush push; };

struct Face {
    bool steep;           // projected area exactly 0
    dvec2 depthGradient;  // dz/dx, dz/dy; zero when steep
};

// faceGeometry of the CPU reference: the normal's cross product as glm::cross computes it.
Face faceGeometry(ObjectGpu object, EbpiViewGpu view, uint i0, uint i1, uint i2) {
    dvec3 p0 = ebpiFetchRayFrame(object, view, i0);
    precise dvec3 x = ebpiFetchRayFrame(object, view, i1) - p0;
    precise dvec3 y = ebpiFetchRayFrame(object, view, i2) - p0;
    precise dvec3 n = dvec3(x.y * y.z - y.y * x.z, x.z * y.x - y.z * x.x, x.x * y.y - y.x * x.y);
    if (n.z == 0.0LF) return Face(true, dvec2(0.0LF));
    precise dvec2 gradient = dvec2(-n.x / n.z, -n.y / n.z);
    return Face(false, gradient);
}

// ebpiSegmentMeetsRegion: whether the segment a-b meets the view's region box, each ray-frame
// point rotated back by the rotation's columns.
bool segmentMeetsRegion(EbpiViewGpu view, dvec3 a, dvec3 b) {
    double enter = 0.0LF;
    double leave = 1.0LF;
    for (int k = 0; k < 3; ++k) {
        precise double sa = (view.rotation[k] * a.x + view.rotation[3 + k] * a.y) + view.rotation[6 + k] * a.z;
        precise double sb = (view.rotation[k] * b.x + view.rotation[3 + k] * b.y) + view.rotation[6 + k] * b.z;
        precise double d = sb - sa;
        if (d == 0.0LF) {
            if (sa < view.regionLo[k] || sa > view.regionHi[k]) return false;
            continue;
        }
        precise double tLo = (view.regionLo[k] - sa) / d;
        precise double tHi = (view.regionHi[k] - sa) / d;
        enter = max(enter, min(tLo, tHi));
        leave = min(leave, max(tLo, tHi));
    }
    return enter <= leave;
}

// steepWallBound: the wall's depth range d (here the object's whole extent) and the other face's slope.
void steepWallBound(EbpiDepthExtentGpu wall, dvec2 otherGradient, inout double bound[5]) {
    precise double slope = sqrt(otherGradient.x * otherGradient.x + otherGradient.y * otherGradient.y);
    precise double depth = (wall.maxZ - wall.minZ) / 4.0LF;
    bound[4] = depth;
    bound[0] = slope / 2.0LF;
    bound[1] = slope / 2.0LF;
}

void main() {
    uint jobIndex = push.firstJob + gl_WorkGroupID.y;
    if (jobIndex >= push.jobCount) return;
    EbpiImageJobGpu job = jobs[jobIndex];
    ObjectGpu object = objects[job.object];
    EbpiViewGpu view = views[job.view];
    uint stride = gl_NumWorkGroups.x * kGroupSize;
    bool overflowed = false;
    for (uint e = gl_GlobalInvocationID.x; e < job.edgeCount; e += stride) {
        EbpiMeshEdgeGpu edge = edges[job.firstEdge + e];
        Face fi = faceGeometry(object, view, edge.triangleI[0], edge.triangleI[1], edge.triangleI[2]);
        Face fj = faceGeometry(object, view, edge.triangleJ[0], edge.triangleJ[1], edge.triangleJ[2]);
        double bound[5] = double[5](0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF);
        dvec3 a = ebpiFetchRayFrame(object, view, edge.a);
        dvec3 b = ebpiFetchRayFrame(object, view, edge.b);
        // Two steep faces: the edge projects into the wall's segment and f does not change there.
        if (fi.steep && !fj.steep)
            steepWallBound(extents[jobIndex], fj.depthGradient, bound);
        else if (fj.steep && !fi.steep)
            steepWallBound(extents[jobIndex], fi.depthGradient, bound);
        else if (!fi.steep && segmentMeetsRegion(view, a, b))
            creaseBound(fi.depthGradient - fj.depthGradient, bound);
        ebpiRasterizeTerm(view, EbpiEdgeTermGpu(a.x, a.y, b.x, b.y, bound), overflowed);
    }
    if (overflowed) atomicOr(overflow[job.view], 1u);
}
