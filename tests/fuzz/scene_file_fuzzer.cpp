// Fuzzes the scene file parser (parseScene on the input text). Mesh paths resolve against an empty
// scratch folder, and inputs that could name a file outside it are skipped, so only the generated
// box/sphere/torus meshes load. Failures: a crash, a sanitizer report, a leak, more than -timeout
// seconds or -rss_limit_mb, or an error that is not one line starting with `scene "fuzz.json": `.
#include "tests/fuzz/fuzz_support.h"
#include "tools/io/scene_file.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (vkc::fuzz::mayNameFileOutside(text)) return -1;
    const vkc::Result<vkc::io::SceneDescription> scene =
        vkc::io::parseScene(text, vkc::fuzz::scratchDir(), "fuzz.json");
    if (!scene.ok()) vkc::fuzz::requireOneLineError(scene.status(), "scene \"fuzz.json\": ");
    return 0;
}
