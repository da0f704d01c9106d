// See ply_check.h.
#include "tools/io/ply_check.h"

#include <fstream>
#include <sstream>
#include <string>

namespace vkc::io {

Status checkAsciiPlyComplete(const std::filesystem::path& path) {
    const std::string name = "mesh file \"" + path.string() + "\"";
    std::ifstream in(path);
    if (!in) return makeError(ErrorCode::IoError, name + ": cannot open");
    bool ascii = false;
    uint64_t announced = 0;
    std::string line;
    bool headerEnded = false;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string keyword;
        words >> keyword;
        if (keyword == "end_header") {
            headerEnded = true;
            break;
        }
        if (keyword == "format") {
            std::string format;
            words >> format;
            ascii = format == "ascii";
        } else if (keyword == "element") {
            std::string element;
            uint64_t count = 0;
            words >> element >> count;
            announced += count;
        }
    }
    // A broken header is assimp's to report, with its own message.
    if (!headerEnded || !ascii) return Status();
    uint64_t dataLines = 0;
    while (dataLines < announced && std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos) ++dataLines;
    if (dataLines < announced)
        return makeError(ErrorCode::InvalidMesh, name + ": truncated: the header announces " +
                                                     std::to_string(announced) + " element lines, the file has " +
                                                     std::to_string(dataLines));
    return Status();
}

}  // namespace vkc::io
