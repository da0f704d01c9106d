// Scene file → library Scene; see scene_builder.h.
#include "tools/io/scene_builder.h"

namespace vkc::io {

Result<Scene> buildScene(Context& context, const SceneDescription& description, const MeshRequirements& requirements) {
    auto scene = Scene::create(context, requirements);
    if (!scene) return scene.status();
    for (const SceneMesh& mesh : description.meshes) {
        auto id = scene->addMesh({mesh.name.c_str(), &mesh.data});
        if (!id)
            return makeError(id.status().code, "scene \"" + description.path + "\": " + id.status().message,
                             id.status().vkResult);
    }
    const SceneFrame& first = description.frames.front();
    for (size_t i = 0; i < description.objects.size(); ++i) {
        const SceneObject& object = description.objects[i];
        auto id = scene->addObject(object.mesh, first.transforms[i], object.name);
        if (!id) return id.status();
    }
    return scene;
}

Status applyFrame(Scene& scene, const SceneFrame& frame) {
    for (ObjectId i = 0; i < frame.transforms.size(); ++i) VKC_TRY(scene.setTransform(i, frame.transforms[i]));
    for (const DeformedMesh& deformed : frame.deformed) VKC_TRY(scene.updateVertices(deformed.mesh, deformed.positions));
    return Status::success();
}

}  // namespace vkc::io
