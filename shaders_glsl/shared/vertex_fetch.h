// How every method's shaders reach a mesh's vertices: one storage-buffer array holding the distinct
// vertex buffers a frame reads (vkcollide's vertex pages and host buffers alike, read in place), one
// struct naming an object's vertices in it and one object struct; the array and the one fetch
// function are in vertex_fetch.glsl.
#ifndef VKC_SHARED_VERTEX_FETCH_H
#define VKC_SHARED_VERTEX_FETCH_H

#include "glsl_cpp.h"

VKC_NAMESPACE_BEGIN

// Binding of the vertex-buffer array in set 0 of every pipeline that reads vertices: above every
// method's other bindings, because a variable-count binding must be its set's last. The array is
// runtime-sized and partially bound; each frame writes the buffers it reads (collision/frames/vertex_buffer_slots.h).
VKC_CONSTANT(uint, kBindingVertexBuffers, 16u)

// Where an object's (or a point set's) positions lie (std430, 16 bytes).
struct VertexSourceGpu {
    uint slot;            // index into the vertex-buffer array
    uint stride;          // floats per vertex; a position is the first three floats of a vertex
    uint offset;          // floats, where vertex 0 starts in its buffer
    uint count;           // vertices (points)
};

// One scene object as every method's shaders see it (std430, 80 bytes).
struct ObjectGpu {
    mat4 objectToLocal;   // object to world, minus the frame's origin (collision/scene/object_transform.h)
    VertexSourceGpu vertices;
};

VKC_NAMESPACE_END

#endif
