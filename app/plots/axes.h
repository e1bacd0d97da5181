#pragma once
// The axes of an axis rect in a fixed order. QCPAxisRect::axes() walks a QHash, whose order Qt seeds anew in each
// process: the timeline put its axes on their layer in that order, so the same chart drew them in another order from
// one run to the next, and its SVG came out different (one `ckpt render` in three).
#include <qcustomplot.h>

inline QList<QCPAxis*> axesOf(const QCPAxisRect* rect) {
    return rect->axes(QCPAxis::atLeft | QCPAxis::atRight | QCPAxis::atTop | QCPAxis::atBottom);
}
