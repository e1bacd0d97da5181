#include "chartexport.h"

#include <QDir>
#include <QFileInfo>
#include <QSvgGenerator>
#include <qcustomplot.h>

QString exportChart(QCustomPlot* plot, const QString& path, int width, int height) {
    if (!plot) return QObject::tr("%1: nothing to export").arg(path);
    if (width < 16 || height < 16 || width > 20000 || height > 20000)
        return QObject::tr("%1: the size %2×%3 is out of range (16 to 20000 pixels)").arg(path).arg(width).arg(height);
    const QString ext = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (ext == "pdf") {
        ok = plot->savePdf(path, width, height, QCP::epNoCosmetic);
    } else if (ext == "png") {
        ok = plot->savePng(path, width, height, 1.0);
    } else if (ext == "svg") {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(QSize(width, height));
        svg.setViewBox(QRect(0, 0, width, height));
        svg.setTitle(QStringLiteral("Checkpoint Explorer chart"));
        QCPPainter painter;
        if (painter.begin(&svg)) {
            plot->toPainter(&painter, width, height);
            ok = painter.end();
        }
    } else {
        return QObject::tr("%1: unknown chart format '%2' (use .pdf, .svg or .png)").arg(path, ext);
    }
    if (!ok || !QFileInfo(path).exists() || QFileInfo(path).size() == 0)
        return QObject::tr("%1: could not write the chart (is the folder writable?)").arg(path);
    return {};
}

QString exportCharts(const QList<QPair<QString, QCustomPlot*>>& charts, const QString& dir, const QString& format,
                     int width, int height) {
    QDir d(dir);
    if (!d.exists() && !d.mkpath(".")) return QObject::tr("%1: cannot create the folder").arg(dir);
    for (const auto& [name, plot] : charts) {
        QString err = exportChart(plot, d.filePath(name + "." + format), width, height);
        if (!err.isEmpty()) return err;
    }
    return {};
}
