// Linked into every executable of a VKCOLLIDE_SANITIZE build. The Vulkan loader unloads the driver
// and the validation layer when the instance goes; their leaks then show in LeakSanitizer's report
// as frames of an "<unknown module>", which no suppression can name. Loading both once more with
// RTLD_NODELETE keeps them mapped to the end, so tools/sanitizers/lsan.supp names them.
#include <dlfcn.h>

#include <initializer_list>

namespace {

__attribute__((constructor)) void keepDriversLoaded() {
    for (const char* library : {"libvulkan_lvp.so", "libVkLayer_khronos_validation.so", "libvulkan.so.1"})
        dlopen(library, RTLD_LAZY | RTLD_NODELETE);  // a missing library is simply not kept
}

}  // namespace
