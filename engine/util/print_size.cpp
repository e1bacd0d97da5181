#include "util/print_size.h"

#include <cstdlib>

namespace {

// One length in points; negative when it does not parse. `pixels` says the unit was px.
double lengthPt(const std::string& s, bool& pixels, bool bareIsPixels) {
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || !(v > 0)) return -1;
    const std::string unit(end);
    pixels = unit == "px" || (unit.empty() && bareIsPixels);
    if (unit.empty() || unit == "pt" || unit == "px") return v;
    if (unit == "in") return v * 72;
    if (unit == "cm") return v * 72 / 2.54;
    if (unit == "mm") return v * 72 / 25.4;
    return -1;
}

} // namespace

std::string parsePrintSize(const std::string& text, PrintSize& size, bool bareIsPixels) {
    // The separator is the 'x' after the first length's unit ("3.5inx2.4in", "1600pxx900px", "252x173").
    for (std::size_t x = text.find('x'); x != std::string::npos; x = text.find('x', x + 1)) {
        bool pw = false, ph = false;
        double w = lengthPt(text.substr(0, x), pw, bareIsPixels), h = lengthPt(text.substr(x + 1), ph, bareIsPixels);
        if (w <= 0 || h <= 0) continue;
        if (pw != ph) return "give both sides in px or both in physical units, got '" + text + "'";
        if (w < 36 || h < 36 || w > 20000 || h > 20000)
            return "'" + text + "' is out of range (0.5 in to 20000 pt, or 36 to 20000 px)";
        size.width_pt = w, size.height_pt = h, size.pixels = pw;
        return {};
    }
    return "expected WIDTHxHEIGHT with units in, cm, mm, pt or px (e.g. 3.5inx2.4in), got '" + text + "'";
}

bool printPreset(const std::string& name, PrintSize& size) {
    if (name == "column")
        size = {252, 180, 8, false};
    else if (name == "two-column")
        size = {504, 216, 8, false};
    else if (name == "slide")
        size = {720, 405, 16, false};
    else
        return false;
    return true;
}
