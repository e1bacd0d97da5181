// File > Import ONNX…: an ONNX model as a graph document (engine/io/onnx_import.h).
#include "mainwindow.h"
#include "models/document.h"
#include "models/startsettings.h"
#include "onnximportdialog.h"

#include <QApplication>
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>

using namespace ckpt;

bool MainWindow::importOnnxDialog(const QString& path) {
    auto inputs = onnxInputs(path.toStdString());
    if (!inputs) return report(QString::fromStdString(inputs.error())), false;
    OnnxImportOptions options = OnnxImportDialog::defaults(*inputs);
    if (m_interactive) {
        OnnxImportDialog dialog(path, *inputs, this);
        if (dialog.exec() != QDialog::Accepted) return false;
        options = dialog.options();
    }
    return importOnnx(path, options);
}

bool MainWindow::importOnnx(const QString& path, const OnnxImportOptions& chosen) {
    OnnxImportOptions options = chosen;
    options.hardware = m_doc->hardware();
    if (m_interactive) QApplication::setOverrideCursor(Qt::WaitCursor);
    auto imported = importOnnxFile(path.toStdString(), options);
    if (m_interactive) QApplication::restoreOverrideCursor();
    if (!imported) return report(QString::fromStdString(imported.error())), false;
    Project proj = m_doc->project();
    proj.graph = imported->graph;
    proj.settings = graphStartSettings(imported->graph, m_doc->hardware());
    m_doc->setProject(proj);
    newDocument({}, path); // named in the title; Save proposes a project beside the model
    m_lastError.clear();
    m_files->addRecent(path);
    // The file's name (the title bar has it too): a whole path pushed the numbers under the run's progress bar.
    QString said = tr("Imported %1: %2 nodes, %3 GFLOP per forward pass")
                       .arg(QFileInfo(path).fileName())
                       .arg(imported->graph.size())
                       .arg(imported->totalFlops() / 1e9, 0, 'f', 1);
    QStringList warnings;
    for (const auto& w : imported->warnings)
        warnings << QString::fromStdString(w);
    if (!warnings.isEmpty()) {
        said += " · " + warnings.join(" · ");
        if (m_interactive) QMessageBox::information(this, tr("Imported with warnings"), warnings.join("\n\n"));
    }
    statusBar()->showMessage(said, 15000);
    return true;
}
