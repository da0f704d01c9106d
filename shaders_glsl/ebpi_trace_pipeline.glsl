// GLSL only, shared by the `ray-tracing-pipeline` backend's shaders (ebpi_trace_pipeline.rgen,
// .rint): one launch invocation per ray, ray y * width + x (ebpiTraceLaunchWidth), so the
// intersection shader knows its ray from the launch ID alone.
#ifndef VKC_EBPI_TRACE_PIPELINE_GLSL
#define VKC_EBPI_TRACE_PIPELINE_GLSL

#include "ebpi_trace_common.glsl"

uint ebpiTraceLaunchRay() { return gl_LaunchIDEXT.y * gl_LaunchSizeEXT.x + gl_LaunchIDEXT.x; }

#endif
