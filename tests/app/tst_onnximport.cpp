// File > Import ONNX… offscreen: the model opens as a graph document timed on the window's machine, the dialog
// proposes a batch where the file leaves it open, and a file that is not a model is refused with its name.
#include "io/json_io.h"
#include "io/onnx_import.h"
#include "models/document.h"
#include "models/nodetablemodel.h"
#include "widgets/mainwindow.h"
#include "widgets/onnximportdialog.h"

#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QtTest>

using namespace ckpt;

namespace {
const QString kResnet50 = QString(CKPT_SOURCE_DIR) + "/examples/onnx/resnet50.onnx";
const QString kCorpus = QString(CKPT_SOURCE_DIR) + "/tests/fuzz/corpus/onnx/";
} // namespace

class TestOnnxImport : public QObject {
    Q_OBJECT
private slots:
    void fileMenuHasImport() {
        MainWindow w;
        QStringList items;
        for (QAction* a : w.menuBar()->actions().front()->menu()->actions())
            items << a->text();
        QVERIFY2(items.contains("&Import ONNX…"), qPrintable(items.join(", ")));
    }

    void resnet50OpensAsAGraphOnTheWindowsMachine() {
        MainWindow w;
        w.setInteractive(false);
        w.openDefault(); // the LSTM on the A100 preset
        const Hardware a100 = w.document()->hardware();
        QCOMPARE(a100.flopsPerSecond(), 19.5e12);
        // A .onnx file opens through the import, with the dialog's defaults: batch 32 for the symbolic batch.
        QVERIFY2(w.openFile(kResnet50), qPrintable(w.lastError()));
        QVERIFY(w.document()->isGraph());
        const Graph g = w.document()->graph();
        // 175 operators and the max-pool's indices.
        QCOMPARE(g.size(), 176);
        QCOMPARE(w.nodeModel()->rowCount(), 176);
        OnnxImportOptions o;
        o.batch = 32;
        o.hardware = a100;
        auto direct = importOnnxFile(kResnet50.toStdString(), o);
        QVERIFY(direct.ok());
        QCOMPARE(g.nodes(), direct->graph.nodes());
        QCOMPARE(w.document()->hardware(), a100);
        QVERIFY(w.windowTitle().startsWith("resnet50.onnx"));
        QVERIFY(!w.isModified());
        QCOMPARE(w.statusBar()->currentMessage(), "Imported resnet50.onnx: 176 nodes, 265.1 GFLOP per forward pass");
        // Then it is a graph document like any other: the current scheduler solves it, the simulator judges it.
        auto run = w.runCurrentNow();
        QVERIFY2(run && run->feasible, run ? run->message.c_str() : "no run");
        QVERIFY(run->graphPlan());
    }

    void refusedFilesLeaveTheDocument() {
        MainWindow w;
        w.setInteractive(false);
        w.openDefault();
        const int before = w.document()->chain().length();
        QVERIFY(!w.openFile(kCorpus + "json.onnx"));
        QVERIFY2(w.lastError().contains("json.onnx: not an ONNX model"), qPrintable(w.lastError()));
        QVERIFY(!w.openFile(kCorpus + "if.onnx"));
        QVERIFY(w.lastError().contains("node 'branch' (If): control flow"));
        QVERIFY(!w.document()->isGraph());
        QCOMPARE(w.document()->chain().length(), before);
    }

    void dialogProposesABatchWhereTheFileLeavesItOpen() {
        auto inputs = onnxInputs(kResnet50.toStdString());
        QVERIFY(inputs.ok());
        OnnxImportDialog dialog(kResnet50, *inputs);
        QCOMPARE(dialog.batch()->value(), 32);
        QCOMPARE(dialog.options().batch, 32);
        QCOMPARE(dialog.options().element_bytes, 0);
        dialog.dtype()->setCurrentText("fp16");
        QCOMPARE(dialog.options().element_bytes, 2);
        // A fixed batch stays the file's.
        auto fixed = onnxInputs((kCorpus + "conv-stack.onnx").toStdString());
        OnnxImportDialog same(kCorpus + "conv-stack.onnx", *fixed);
        QCOMPARE(same.batch()->value(), 0);
        QCOMPARE(same.batch()->text(), "as in the file");
        QCOMPARE(same.options().batch, 0);
    }

    // The encoder leaves its batch and its sequence length ('seq') open: the dialog asks for both (the batch cannot
    // be "as in the file"), and the import gets the input's whole shape. Opened without the dialog, the same
    // defaults apply. (The dialog used to ask for the batch only, and the import refused 'seq', telling the user of
    // the window to "give --input".)
    void dialogAsksForEveryOpenDimension() {
        const QString encoder = QString(CKPT_SOURCE_DIR) + "/examples/onnx/transformer-encoder.onnx";
        auto inputs = onnxInputs(encoder.toStdString());
        QVERIFY(inputs.ok());
        QCOMPARE(int(inputs->size()), 1);
        QCOMPARE(inputs->front().symbols[1], std::string("seq"));
        OnnxImportDialog dialog(encoder, *inputs);
        QCOMPARE(dialog.batch()->minimum(), 1);
        QSpinBox* seq = dialog.dimension("seq");
        QVERIFY(seq);
        QVERIFY(!dialog.dimension("batch"));
        using Shapes = std::vector<std::pair<std::string, std::vector<std::int64_t>>>;
        QCOMPARE(dialog.options().inputs, (Shapes{{"input", {32, 128, 512}}}));
        QCOMPARE(OnnxImportDialog::defaults(*inputs).inputs, dialog.options().inputs);
        dialog.batch()->setValue(8);
        seq->setValue(64);
        QCOMPARE(dialog.options().inputs, (Shapes{{"input", {8, 64, 512}}}));
        QCOMPARE(dialog.options().batch, 8);

        // Open dimensions without a symbol get a field each ("x:1"); a symbol shared by inputs gets one field; a
        // symbol that names a batch dimension anywhere takes the batch size wherever it appears.
        const std::vector<OnnxInput> mixed{{"x", {-1, -1, 3}, {"", "", ""}},
                                           {"y", {-1, 7, -1}, {"batch", "", "seq"}},
                                           {"z", {2, -1}, {"", "batch"}},
                                           {"w", {-1, -1}, {"batch", "seq"}}};
        OnnxImportDialog several("mixed.onnx", mixed);
        QVERIFY(several.dimension("x:1") && several.dimension("seq"));
        QVERIFY(!several.dimension("batch") && !several.dimension("z:1") && !several.dimension("y:1"));
        several.dimension("x:1")->setValue(5);
        several.dimension("seq")->setValue(9);
        several.batch()->setValue(4);
        // z's first dimension is fixed at 2 by the file: it stays (the import refuses to change it).
        QCOMPARE(several.options().inputs, (Shapes{{"x", {4, 5, 3}}, {"y", {4, 7, 9}}, {"z", {2, 4}}, {"w", {4, 9}}}));

        MainWindow w;
        w.setInteractive(false);
        w.openDefault();
        QVERIFY2(w.openFile(encoder), qPrintable(w.lastError()));
        QVERIFY(w.document()->isGraph());
        OnnxImportOptions o;
        o.inputs = {{"input", {32, 128, 512}}};
        o.hardware = w.document()->hardware();
        auto direct = importOnnxFile(encoder.toStdString(), o);
        QVERIFY2(direct.ok(), direct.ok() ? "" : direct.error().c_str());
        QCOMPARE(w.document()->graph().nodes(), direct->graph.nodes());
    }
};

QTEST_MAIN(TestOnnxImport)
#include "tst_onnximport.moc"
