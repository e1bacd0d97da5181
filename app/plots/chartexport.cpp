#include "chartexport.h"

#include "io/files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSvgGenerator>
#include <QTemporaryDir>
#include <qcustomplot.h>

QString exportChart(QCustomPlot* plot, const QString& path, int width, int height) {
    if (!plot) return QObject::tr("%1: nothing to export").arg(path);
    if (width < 16 || height < 16 || width > 20000 || height > 20000)
        return QObject::tr("%1: the size %2×%3 is out of range (16 to 20000 pixels)").arg(path).arg(width).arg(height);
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext != "pdf" && ext != "png" && ext != "svg")
        return QObject::tr("%1: unknown chart format '%2' (use .pdf, .svg or .png)").arg(path, ext);
    // QCustomPlot and QPrinter write straight to a path, so they write into a private folder first and the result
    // is saved like every other file (a unique temporary beside the destination, renamed over it): an interrupted or
    // failed export never leaves half a chart, and a link in the destination's folder is not followed.
    QTemporaryDir scratch;
    if (!scratch.isValid()) return QObject::tr("%1: no temporary folder to draw the chart in").arg(path);
    const QString drawn = scratch.filePath("chart." + ext);
    bool ok = false;
    if (ext == "pdf") {
        ok = plot->savePdf(drawn, width, height, QCP::epNoCosmetic);
    } else if (ext == "png") {
        ok = plot->savePng(drawn, width, height, 1.0);
    } else {
        QSvgGenerator svg;
        svg.setFileName(drawn);
        svg.setSize(QSize(width, height));
        svg.setViewBox(QRect(0, 0, width, height));
        svg.setTitle(QStringLiteral("Checkpoint Explorer chart"));
        QCPPainter painter;
        if (painter.begin(&svg)) {
            plot->toPainter(&painter, width, height);
            ok = painter.end();
        }
    }
    QFile file(drawn);
    if (!ok || !file.open(QIODevice::ReadOnly) || file.size() == 0)
        return QObject::tr("%1: could not draw the chart").arg(path);
    const QByteArray bytes = file.readAll();
    auto saved = ckpt::writeTextFileAtomic(path.toStdString(), bytes.toStdString());
    if (!saved) return QString::fromStdString(saved.error());
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
