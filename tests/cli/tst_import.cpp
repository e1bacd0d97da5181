// `ckpt import` as a user runs it: the shipped ONNX examples into graph and chain files that the other commands read,
// the exit code 2 with the file named for every refusal, warnings for unknown operators (refusals with --strict).
#include "io/graph_io.h"
#include "io/json_io.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "common/ckpt_process.h"

using ckpt::test::ckptRun;
using ckpt::test::Output;

namespace {

QString onnx(const char* name) {
    return QString(CKPT_SOURCE_DIR) + "/examples/onnx/" + name;
}
QString corpus(const char* name) {
    return QString(CKPT_SOURCE_DIR) + "/tests/fuzz/corpus/onnx/" + name;
}

} // namespace

class TestImport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString path(const char* name) { return m_dir.filePath(name); }

private slots:
    void resnet50IntoAGraphFile() {
        Output o = ckptRun({"import", onnx("resnet50.onnx"), "--batch", "32", "--out", path("r50.ckpt-graph.json")});
        QCOMPARE(o.code, 0);
        // 175 operators' nodes, and the max-pool's indices beside it (the BatchNorms' statistics are counted with
        // their inputs).
        QVERIFY2(o.out.contains("176 nodes, 192 edges (175 operators, 1 folded"), o.out.constData());
        QVERIFY(o.out.contains("265.1 GFLOP per forward pass; forward 16.89 ms"));
        // 2 x ResNet-50's 4.09 G multiply-adds per image, 32 images, and the classifier's bias.
        QVERIFY(o.out.contains("261.7 GFLOP of them in convolutions and matrix products"));
        QVERIFY(o.out.contains("BatchNormalization x53: keeps its input and per-channel mean and inverse deviation, "
                               "counted with its input (207.5 KiB in all besides the outputs)"));
        QVERIFY(o.out.contains("MaxPool x1: keeps its input and the int64 indices of its maxima (49 MiB"));
        QVERIFY(o.err.isEmpty());
        auto g = ckpt::loadGraph(path("r50.ckpt-graph.json").toStdString());
        QVERIFY2(g.ok(), g ? "" : g.error().c_str());
        QCOMPARE(g->size(), 176);
        auto doc = ckpt::loadJson(path("r50.ckpt-graph.json").toStdString());
        QCOMPARE(doc->at("nodes")[1]["op"].get<std::string>(), "Conv");
        QVERIFY(doc->at("comment").get<std::string>().find("batch 32") != std::string::npos);
        // The file is a graph like any other.
        QCOMPARE(ckptRun({"solve", path("r50.ckpt-graph.json"), "--scheduler", "store-all"}).code, 0);
    }

    void machineAndElementSize() {
        const QString a100 = QString(CKPT_SOURCE_DIR) + "/resources/hardware/gpu-a100.ckpt-hardware.json";
        QCOMPARE(ckptRun({"import", onnx("resnet18.onnx"), "--batch", "8", "--dtype", "fp16", "--hardware", a100,
                          "--out", path("r18.json")})
                     .code,
                 0);
        auto g = ckpt::loadGraph(path("r18.json").toStdString());
        // conv1's output, (8, 64, 112, 112) in fp16, and bn1's statistics (2 x 64 channels, fp32); its forward the
        // larger of 2*8*112*112*64*3*49 FLOP at 19.5 TFLOP/s and its bytes (input 8*3*224*224, weight 64*3*49,
        // output) at 1555 GB/s.
        const auto& conv1 = g->node(g->indexOf("conv1"));
        QCOMPARE(conv1.output_bytes, std::int64_t(8) * 64 * 112 * 112 * 2 + 2 * 64 * 4);
        const double flops = 2.0 * 8 * 112 * 112 * 64 * 3 * 49;
        const double bytes = 2.0 * (8 * 3 * 224 * 224 + 64 * 3 * 49 + 8 * 64 * 112 * 112);
        QCOMPARE(conv1.forward, std::max(flops / 19.5e12, bytes / 1555e9));
    }

    void asChainAndTheDefaultOutput() {
        QVERIFY(QFile::copy(onnx("resnet50.onnx"), path("resnet50.onnx")));
        Output o = ckptRun({"import", path("resnet50.onnx"), "--batch", "32", "--as-chain"});
        QCOMPARE(o.code, 0);
        QVERIFY(o.out.contains("a chain of 38 segments between articulation points"));
        auto chain = ckpt::loadChain(path("resnet50.ckpt-chain.json").toStdString());
        QVERIFY2(chain.ok(), chain ? "" : chain.error().c_str());
        QCOMPARE(chain->length(), 38);
        QCOMPARE(ckptRun({"solve", path("resnet50.ckpt-chain.json"), "--scheduler", "rotor", "--budget", "60%"}).code,
                 0);
        QVERIFY(ckptRun({"import", path("resnet50.onnx"), "--batch", "32"}).code == 0);
        QVERIFY(QFile::exists(path("resnet50.ckpt-graph.json")));
    }

    void refusalsNameTheFile_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("dynamic batch") << QStringList{onnx("resnet50.onnx")}
                                       << "resnet50.onnx: input 'input' dimension 0 ('batch') is not fixed: give "
                                          "--batch N or --input input=DIMS";
        QTest::newRow("json") << QStringList{corpus("json.onnx")}
                              << "json.onnx: not an ONNX model: byte 0 does not start an ONNX model field (it looks "
                                 "like JSON)";
        QTest::newRow("truncated") << QStringList{corpus("truncated.onnx")}
                                   << "truncated.onnx: truncated: graph at byte";
        QTest::newRow("empty") << QStringList{corpus("empty.onnx")}
                               << "empty.onnx: not an ONNX model: the file is empty";
        QTest::newRow("opset") << QStringList{corpus("opset99.onnx")}
                               << "opset99.onnx: wrong opset: the model uses opset 99";
        QTest::newRow("no graph") << QStringList{corpus("no-graph.onnx")} << "no-graph.onnx: the model has no graph";
        QTest::newRow("control flow") << QStringList{corpus("if.onnx")} << "if.onnx: node 'branch' (If): control flow";
        QTest::newRow("strict") << QStringList{corpus("custom-op.onnx"), "--strict"}
                                << "custom-op.onnx: operators this importer does not know, imported at zero cost: "
                                   "com.example.Frobnicate x1 (frob) (--strict)";
        QTest::newRow("missing") << QStringList{path("nothing.onnx")} << "nothing.onnx: cannot open";
        QTest::newRow("dtype") << QStringList{onnx("vgg16.onnx"), "--dtype", "fp8"} << "--dtype: expected fp32";
        QTest::newRow("batch") << QStringList{onnx("vgg16.onnx"), "--batch", "0"} << "--batch: expected a whole number";
        QTest::newRow("input") << QStringList{onnx("vgg16.onnx"), "--input", "input=1x3xfoo"} << "--input: expected";
        QTest::newRow("input name") << QStringList{onnx("vgg16.onnx"), "--input", "image=1x3x224x224"}
                                    << "--input image: the model has no data input of that name (its inputs: 'input')";
        // One operator: one segment, no chain.
        QTest::newRow("no chain") << QStringList{corpus("one-node.onnx"), "--as-chain"}
                                  << "--as-chain: one_node: no articulation point splits the graph";
        QTest::newRow("batch conflict")
            << QStringList{corpus("fixed-batch.onnx"), "--batch", "32"}
            << "fixed-batch.onnx: input 'x' dimension 0 is fixed at 2 in the file; --batch 32 cannot change it: the "
               "file's Reshape targets and other shapes were computed for 2 when it was exported. Re-export with that "
               "dimension dynamic (torch.onnx.export(..., dynamic_axes={'x': {0: 'batch'}})), or leave --batch out";
        QTest::newRow("unsized") << QStringList{corpus("nonzero.onnx")}
                                 << "nonzero.onnx: 3 nodes with an output of unknown size: nz (NonZero), as_float "
                                    "(Cast), after (Relu)";
        QTest::newRow("unfoldable shape") << QStringList{corpus("reshape-by-data.onnx")}
                                          << "reshape-by-data.onnx: 2 nodes with an output of unknown size: reshape "
                                             "(Reshape), relu (Relu)";
        QTest::newRow("unknown operator, unsized") << QStringList{corpus("custom-op.onnx")}
                                                   << "custom-op.onnx: 2 nodes with an output of unknown size: frob "
                                                      "(com.example.Frobnicate), relu (Relu)";
    }
    void refusalsNameTheFile() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        Output o = ckptRun(QStringList{"import"} + args + QStringList{"--out", path("out.json")});
        QCOMPARE(o.code, 2);
        QVERIFY2(o.err.contains(message.toUtf8()), o.err.constData());
    }

    void unknownOperatorsWarn() {
        Output o = ckptRun({"import", corpus("custom-op.onnx"), "--allow-unsized", "--out", path("custom.json")});
        QCOMPARE(o.code, 0);
        QVERIFY(o.err.contains("counted as 0 bytes (--allow-unsized)"));
        QVERIFY(o.err.contains("ckpt: warning: "));
        QVERIFY(o.err.contains("operators this importer does not know, imported at zero cost: com.example.Frobnicate"));
    }
};

QTEST_GUILESS_MAIN(TestImport)
#include "tst_import.moc"
