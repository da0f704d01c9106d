// The comparison table as text; see compare_table_text.h.
#include "tools/cli/compare_table_text.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ostream>
#include <vector>

namespace vkc::tools {

namespace {

constexpr std::array<const char*, 9> kHeader = {"pair",  "method",         "found",  "volume",        "|error|",
                                                "bound", "bound/|error|", "within", "triangle pairs"};
using Line = std::array<std::string, kHeader.size()>;

std::string number(const char* format, double value) {
    char text[32];
    std::snprintf(text, sizeof(text), format, value);
    return text;
}

Line lineOf(const std::string& pair, const std::string& method, const CompareCell& cell, bool differsFromExact) {
    Line line;
    line[0] = pair;
    line[1] = method;
    line[2] = cell.found + (differsFromExact ? " *" : "");
    if (cell.volume) line[3] = number("%.6g", *cell.volume);
    if (cell.volumeError) {  // the exact row has none: it is the truth
        line[4] = number("%.2g", *cell.volumeError);
        if (cell.volumeErrorBound) {
            line[5] = number("%.2g", *cell.volumeErrorBound);
            if (auto ratio = cell.boundOverError()) line[6] = number("%.3g", *ratio);
            line[7] = cell.withinBound() ? "yes" : "NO";
        }
    }
    if (cell.trianglePairs) line[8] = std::to_string(*cell.trianglePairs);
    return line;
}

}  // namespace

void printCompareTable(std::ostream& out, const std::string& title, const CompareTable& table,
                       std::span<const std::string> objectNames, std::span<const double> wallMs) {
    out << title << "\n";
    if (table.rows.empty()) out << "  no pair reported by any method\n";
    std::vector<Line> lines;
    if (!table.rows.empty()) std::copy(kHeader.begin(), kHeader.end(), lines.emplace_back().begin());
    bool anyDiffers = false;
    for (const CompareRow& row : table.rows) {
        const std::string pair = objectNames[row.a] + " / " + objectNames[row.b];
        const bool exactFound = row.cells.front().found == "yes";
        for (size_t m = 0; m < table.methods.size(); ++m) {
            const std::string& found = row.cells[m].found;
            // Only a plain yes or no can disagree: undecided and truncated say so themselves.
            const bool differs = m != 0 && (found == "yes" || found == "no") && (found == "yes") != exactFound;
            anyDiffers = anyDiffers || differs;
            lines.push_back(lineOf(m == 0 ? pair : "", table.methods[m], row.cells[m], differs));
        }
    }
    std::array<size_t, kHeader.size()> width{};
    for (const Line& line : lines)
        for (size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
    for (const Line& line : lines) {
        std::string text = " ";
        for (size_t c = 0; c < line.size(); ++c) text += " " + line[c] + std::string(width[c] - line[c].size(), ' ');
        text.erase(text.find_last_not_of(' ') + 1);
        out << text << "\n";
    }
    if (anyDiffers) out << "  * differs from exact\n";
    out << "  wall ms:";
    for (size_t m = 0; m < table.methods.size(); ++m)
        out << (m ? ", " : " ") << table.methods[m] << " " << number("%.0f", wallMs[m]);
    out << "\n";
}

}  // namespace vkc::tools
