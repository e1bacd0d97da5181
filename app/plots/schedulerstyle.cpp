#include "schedulerstyle.h"

#include <array>
#include <functional>

namespace {

// Okabe and Ito's colour-blind-safe palette without its yellow (too faint on white), plus a purple and a brown.
const QColor kBlack(0, 0, 0), kOrange(230, 159, 0), kSky(86, 180, 233), kGreen(0, 158, 115), kBlue(0, 114, 178),
    kVermillion(213, 94, 0), kPurplePink(204, 121, 167), kGrey(110, 110, 110), kPurple(120, 60, 160),
    kBrown(140, 90, 40);

struct Entry {
    const char* name;
    QColor color;
    QCPScatterStyle::ScatterShape marker;
    Qt::PenStyle dash;
};

// Chain schedulers first, then the graph schedulers; a name in both registries (store-all) has one look.
const Entry kTable[] = {
    {"store-all", kBlack, QCPScatterStyle::ssCircle, Qt::SolidLine},
    {"periodic", kGrey, QCPScatterStyle::ssPlus, Qt::DashDotLine},
    {"revolve", kBlue, QCPScatterStyle::ssSquare, Qt::SolidLine},
    {"rotor", kVermillion, QCPScatterStyle::ssTriangle, Qt::DashLine},
    {"bptt-dp", kGreen, QCPScatterStyle::ssDiamond, Qt::DotLine},
    {"multistage", kPurplePink, QCPScatterStyle::ssTriangleInverted, Qt::DashLine},
    {"async-multistage", kOrange, QCPScatterStyle::ssStar, Qt::DashDotLine},
    {"double-checkpointing", kPurple, QCPScatterStyle::ssCrossSquare, Qt::DotLine},
    {"chen-sqrt", kSky, QCPScatterStyle::ssCross, Qt::DashLine},
    {"chen-greedy", kBrown, QCPScatterStyle::ssPlusCircle, Qt::SolidLine},
    {"reversible", kGreen, QCPScatterStyle::ssCrossCircle, Qt::DashDotLine},
    {"dtr", kOrange, QCPScatterStyle::ssPlusSquare, Qt::DotLine},
    {"lower-set-dp", kBlue, QCPScatterStyle::ssPeace, Qt::DashLine},
    {"checkmate", kVermillion, QCPScatterStyle::ssDisc, Qt::SolidLine},
};

} // namespace

SchedulerStyle schedulerStyle(const std::string& name) {
    for (const Entry& e : kTable)
        if (name == e.name) return {e.color, e.marker, e.dash, true};
    // Not in the table yet (a new scheduler): a look that depends on the name only, never on run order.
    static const std::array<QColor, 10> colors = {kBlack,      kOrange,     kSky,  kGreen,  kBlue,
                                                  kVermillion, kPurplePink, kGrey, kPurple, kBrown};
    static const std::array<Qt::PenStyle, 4> dashes = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    const std::size_t h = std::hash<std::string>()(name);
    return {colors[h % colors.size()], QCPScatterStyle::ssDiamond, dashes[(h / colors.size()) % dashes.size()], false};
}

QPen schedulerPen(const SchedulerStyle& style, double width) {
    QPen pen(style.color, width, style.dash);
    pen.setCapStyle(Qt::FlatCap);
    return pen;
}

QCPScatterStyle schedulerScatter(const SchedulerStyle& style, double size) {
    // The marker's outline is solid even when the line is dashed, so the shape stays readable.
    QCPScatterStyle s(style.marker, QPen(style.color, 1.2),
                      style.marker == QCPScatterStyle::ssDisc ? style.color : Qt::NoBrush, size);
    return s;
}
