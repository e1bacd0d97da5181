// The transformer generator against Korthikanti et al. 2022's closed forms of a layer's activation memory: what
// store-all holds when the last forward ends, for L + 1 layers less L layers, is sbh(34 + 5as/h) bytes without
// parallelism, sbh(10 + 24/t + 5as/(ht)) with tensor parallelism and sbh(34/t + 5as/(ht)) with sequence parallelism
// too.
#include "model/transformer.h"
#include "sim/graph_simulator.h"

#include <QtTest>

using namespace ckpt;

namespace {

std::int64_t heldAfterForward(TransformerShape shape, int layers) {
    shape.layers = layers;
    auto g = transformerGraph(shape, Hardware::unbounded());
    if (!g) qFatal("%s", g.error().c_str());
    auto tl = simulateGraph(*g, graphStoreAll(*g));
    if (!tl) qFatal("%s", tl.error().c_str());
    return tl->totals.held_after_forward_bytes;
}

} // namespace

class TestTransformer : public QObject {
    Q_OBJECT
private slots:
    void layerMemoryIsThePapersClosedForm_data() {
        QTest::addColumn<qlonglong>("s");
        QTest::addColumn<qlonglong>("b");
        QTest::addColumn<qlonglong>("h");
        QTest::addColumn<qlonglong>("a");
        QTest::addColumn<int>("t");
        // The paper's models (22B: h 6144, a 64; 175B: h 12288, a 96; 530B: h 20480, a 128; 1T: h 25600, a 160, all
        // at s 2048, micro-batch 1 to 4), scaled down in s so that the test stays small, and odd shapes.
        QTest::newRow("small") << 64LL << 2LL << 128LL << 4LL << 1;
        QTest::newRow("22B-like") << 128LL << 4LL << 6144LL << 64LL << 8;
        QTest::newRow("175B-like") << 96LL << 1LL << 12288LL << 96LL << 8;
        QTest::newRow("530B-like") << 64LL << 1LL << 20480LL << 128LL << 8;
        QTest::newRow("1T-like") << 64LL << 1LL << 25600LL << 160LL << 8;
        QTest::newRow("odd") << 40LL << 3LL << 96LL << 6LL << 2;
    }
    void layerMemoryIsThePapersClosedForm() {
        QFETCH(qlonglong, s);
        QFETCH(qlonglong, b);
        QFETCH(qlonglong, h);
        QFETCH(qlonglong, a);
        QFETCH(int, t);
        TransformerShape m;
        m.seq = s, m.batch = b, m.hidden = h, m.heads = a;
        const std::int64_t sbh = s * b * h, as2b = a * s * s * b;
        struct Case {
            int t;
            bool sp;
            std::int64_t bytes;
            bool flash = false;
        };
        // FlashAttention keeps no s x s matrix, only the softmax's row statistics: 4asb bytes (fp32) instead of 5as^2b.
        const std::int64_t asb = a * s * b;
        for (const Case& c :
             {Case{1, false, 34 * sbh + 5 * as2b}, Case{t, false, 10 * sbh + 24 * sbh / t + 5 * as2b / t},
              Case{t, true, 34 * sbh / t + 5 * as2b / t}, Case{1, false, 34 * sbh + 4 * asb, true},
              Case{t, false, 10 * sbh + 24 * sbh / t + 4 * asb / t, true},
              Case{t, true, 34 * sbh / t + 4 * asb / t, true}}) {
            m.tensor_parallel = c.t, m.sequence_parallel = c.sp, m.flash_attention = c.flash;
            const std::int64_t layer = heldAfterForward(m, 3) - heldAfterForward(m, 2);
            QCOMPARE(layer, c.bytes);
            QCOMPARE(heldAfterForward(m, 2) - heldAfterForward(m, 1), c.bytes);
        }
    }

    void refusesShapesThatDoNotSplit() {
        const Hardware hw = Hardware::unbounded();
        TransformerShape m;
        m.hidden = 100, m.heads = 16;
        auto r = transformerGraph(m, hw);
        QVERIFY(!r);
        QCOMPARE(QString::fromStdString(r.error()),
                 QString("transformer: the hidden size 100 is not a multiple of the 16 heads"));
        m.hidden = 1024, m.tensor_parallel = 3;
        QVERIFY(!transformerGraph(m, hw));
        m.tensor_parallel = 4, m.sequence_parallel = true, m.seq = 2050;
        r = transformerGraph(m, hw);
        QVERIFY(!r);
        QVERIFY2(r.error().find("sequence of 2050") != std::string::npos, r.error().c_str());
    }
};

QTEST_APPLESS_MAIN(TestTransformer)
#include "tst_transformer.moc"
