// Lets one header declare GPU-visible layouts and limits for both GLSL and C++.
// In C++ the types come from GLM and live in namespace vkc::gpu; in GLSL they are the built-ins.
#ifndef VKC_SHARED_GLSL_CPP_H
#define VKC_SHARED_GLSL_CPP_H

#ifdef __cplusplus
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <cstdint>
#define VKC_NAMESPACE_BEGIN namespace vkc::gpu { using uint = uint32_t; using mat4 = glm::mat4; using vec4 = glm::vec4; using uvec4 = glm::uvec4; using dvec4 = glm::dvec4;
#define VKC_NAMESPACE_END }
#define VKC_CONSTANT(type, name, value) inline constexpr type name = value;
#else
#define VKC_NAMESPACE_BEGIN
#define VKC_NAMESPACE_END
#define VKC_CONSTANT(type, name, value) const type name = value;
#endif

#endif
