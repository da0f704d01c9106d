// What the fuzz targets share: a private, empty scratch folder for the files a reader must open,
// a guard that keeps fuzzed JSON from naming files outside it, and the check that an error is
// the one-line message the readers promise. A violated promise aborts, which libFuzzer reports
// as a crash with the input that caused it.
#pragma once

#include "vkcollide/status.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <unistd.h>

namespace vkc::fuzz {

// A folder of this process under $TMPDIR (else /tmp), created empty on first use. It is not
// removed here (libFuzzer may end the process with _Exit): tools/run_fuzz.sh points TMPDIR into
// its own work folder and removes that.
inline const std::filesystem::path& scratchDir() {
    static const std::filesystem::path dir = [] {
        std::string pattern = (std::filesystem::temp_directory_path() / "vkc-fuzz-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            std::perror("vkc-fuzz: mkdtemp");
            std::abort();
        }
        return std::filesystem::path(pattern);
    }();
    return dir;
}

// Writes the fuzz input to `scratchDir()/name` (the same file every run: no per-run clean-up).
inline std::filesystem::path writeScratchFile(const char* name, const uint8_t* data, size_t size) {
    const std::filesystem::path path = scratchDir() / name;
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), std::streamsize(size));
    return path;
}

// True when JSON text could name a file outside the scratch folder: a string that starts with
// '/', a ".." anywhere, or the escapes that could spell either ("\/", "\u002f", glTF's "%2F").
// Such inputs are skipped, so the scene and glTF targets never read the machine's own files.
inline bool mayNameFileOutside(std::string_view text) {
    for (std::string_view escape : {"\"/", "..", "\\/", "\\u", "%2"})
        if (text.find(escape) != std::string_view::npos) return true;
    return false;
}

// Aborts unless `status` is an error on one line that starts with `prefix` (the file's name).
inline void requireOneLineError(const Status& status, std::string_view prefix) {
    const std::string& message = status.message;
    if (!status.ok() && message.size() > prefix.size() && message.compare(0, prefix.size(), prefix) == 0 &&
        message.find_first_of("\r\n") == std::string::npos)
        return;
    std::fprintf(stderr, "vkc-fuzz: error not one line starting with '%.*s': code %d, message '%s'\n",
                 int(prefix.size()), prefix.data(), int(status.code), message.c_str());
    std::abort();
}

}  // namespace vkc::fuzz
