// Fuzzes one mesh format's loader (loadMesh, so STL is welded too): the input is written to a
// scratch file named by VKC_FUZZ_EXTENSION (.off .stl .ply .gltf .glb .obj; one binary each).
// Failures: a crash, a sanitizer report, a leak, more than -timeout seconds or -rss_limit_mb,
// an error that is not one line naming the file, or a mesh returned without triangles.
#include "tests/fuzz/fuzz_support.h"
#include "tools/io/mesh_loader.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#ifndef VKC_FUZZ_EXTENSION
#error "VKC_FUZZ_EXTENSION must name the format, e.g. \".ply\""
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view extension = VKC_FUZZ_EXTENSION;
    // glTF names buffer files; keep them inside the scratch folder.
    if ((extension == ".gltf" || extension == ".glb") &&
        vkc::fuzz::mayNameFileOutside({reinterpret_cast<const char*>(data), size}))
        return -1;
    const std::string name = std::string("input") + VKC_FUZZ_EXTENSION;
    const std::filesystem::path path = vkc::fuzz::writeScratchFile(name.c_str(), data, size);
    const vkc::Result<vkc::MeshData> mesh = vkc::io::loadMesh(path);
    if (!mesh.ok()) {
        vkc::fuzz::requireOneLineError(mesh.status(), "mesh file \"" + path.string() + "\"");
    } else if (mesh->indices.empty()) {
        std::fprintf(stderr, "vkc-fuzz: loadMesh returned a mesh without triangles\n");
        std::abort();
    }
    return 0;
}
