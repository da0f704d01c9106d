// Turns a loaded scene file into a library Scene (meshes checked and uploaded, objects placed),
// and applies a frame's transforms and deformed vertices to it.
#pragma once

#include "tools/io/scene_file.h"
#include "vkcollide/scene.h"

namespace vkc::io {

// Mesh i of the file becomes MeshId i, object i becomes ObjectId i. Errors name the mesh or object.
Result<Scene> buildScene(Context& context, const SceneDescription& description, const MeshRequirements& requirements);

Status applyFrame(Scene& scene, const SceneFrame& frame);

}  // namespace vkc::io
