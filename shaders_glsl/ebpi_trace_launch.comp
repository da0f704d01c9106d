// ebpi casting, `ray-tracing-pipeline` backend: turns the ray count the same frame's ray generator
// wrote into the VkTraceRaysIndirectCommandKHR of the trace (ebpiTraceLaunchWidth/Height), so the
// launch has one invocation per ray and the count never returns to the host. One invocation.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_trace_common.glsl"

layout(local_size_x = 1) in;

layout(set = 0, binding = kEbpiTraceBindingLaunch, std430) writeonly buffer Launch { uint launch[4]; };

void main() {
    uint rayCount = ebpiTraceRayCount();
    launch[0] = ebpiTraceLaunchWidth(rayCount);
    launch[1] = ebpiTraceLaunchHeight(rayCount);
    launch[2] = 1u;
    launch[3] = 0u;
}
