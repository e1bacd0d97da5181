// The cells' gradients, from store-all BPTT, against central finite differences of the mean loss (fp64), for each
// cell and both losses; and the byte sizes the chain declares against the buffers a step really allocates.
#include "trainer/bptt.h"
#include "trainer/task.h"

#include <QFile>
#include <QtTest>
#include <cmath>

using namespace ckpt::trainer;

namespace {

struct Case {
    CellKind cell;
    const char* task;
};

// Largest |analytic - numeric| / max(1e-3, |analytic| + |numeric|) over every parameter.
double worstRelativeError(CellKind cell, const char* taskName, int hidden, int batch, int length) {
    auto task = Task::make(taskName, {}, 0);
    if (!task) qFatal("%s", task.error().c_str());
    std::mt19937_64 rng(11);
    Batch<double> b = task->sample<double>(length, batch, rng);
    Network<double> net(Shape{cell, task->inputWidth(), hidden, batch, task->outputWidth()}, task->loss(), 5);
    Parameters<double> g = net.zeroGradients();
    bpttStoreAll(net, b, g);
    double worst = 0;
    const double eps = 1e-6;
    for (std::size_t k = 0; k < net.parameters().tensors.size(); ++k) {
        Mat<double>& w = net.parameters().tensors[k];
        for (Eigen::Index i = 0; i < w.size(); ++i) {
            const double keep = w.data()[i];
            w.data()[i] = keep + eps;
            const double up = meanLoss(net, b);
            w.data()[i] = keep - eps;
            const double down = meanLoss(net, b);
            w.data()[i] = keep;
            const double numeric = (up - down) / (2 * eps);
            const double analytic = g.tensors[k].data()[i];
            worst =
                std::max(worst, std::abs(analytic - numeric) / std::max(1e-3, std::abs(analytic) + std::abs(numeric)));
        }
    }
    return worst;
}

} // namespace

class TestCells : public QObject {
    Q_OBJECT
private slots:
    void finiteDifferences_data() {
        QTest::addColumn<int>("cell");
        QTest::addColumn<QString>("task");
        for (CellKind c : {CellKind::Rnn, CellKind::Gru, CellKind::Lstm})
            for (const char* t : {"copy", "adding", "sine"})
                QTest::newRow((std::string(cellName(c)) + "/" + t).c_str()) << int(c) << QString(t);
    }
    void finiteDifferences() {
        QFETCH(int, cell);
        QFETCH(QString, task);
        // Central differences in fp64 are good to ~1e-8 here; a wrong term in any equation gives O(1).
        double err = worstRelativeError(CellKind(cell), task.toUtf8().constData(), 4, 3, 7);
        qInfo("worst relative error %.2e", err);
        QVERIFY2(err < 1e-6, QByteArray::number(err));
    }

    void textTaskGradients() {
        // The character model's one-hot inputs and larger softmax, on the licence text every Debian system ships.
        if (!QFile::exists(Task::kDefaultText)) QSKIP("no /usr/share/common-licenses/GPL-3 here");
        auto task = Task::make("text", {}, 0);
        QVERIFY2(task.ok(), task.ok() ? "" : task.error().c_str());
        QVERIFY(task->outputWidth() > 40);
        std::mt19937_64 rng(3);
        Batch<double> b = task->sample<double>(4, 2, rng);
        Network<double> net(Shape{CellKind::Gru, task->inputWidth(), 3, 2, task->outputWidth()}, task->loss(), 9);
        Parameters<double> g = net.zeroGradients();
        bpttStoreAll(net, b, g);
        // Spot-check the read-out bias and a recurrent weight.
        for (std::size_t k : {std::size_t(1), g.tensors.size() - 1}) {
            Mat<double>& w = net.parameters().tensors[k];
            const double keep = w(0, 0), eps = 1e-6;
            w(0, 0) = keep + eps;
            double up = meanLoss(net, b);
            w(0, 0) = keep - eps;
            double down = meanLoss(net, b);
            w(0, 0) = keep;
            QVERIFY(std::abs((up - down) / (2 * eps) - g.tensors[k](0, 0)) < 1e-7);
        }
    }

    void declaredBytesAreAllocatedBytes() {
        for (CellKind c : {CellKind::Rnn, CellKind::Gru, CellKind::Lstm}) {
            Cell<float> f(Shape{c, 3, 7, 5, 2});
            Cell<double> d(Shape{c, 3, 7, 5, 2});
            QCOMPARE(f.allocState().bytes(), f.stateBytes());
            QCOMPARE(f.allocTape().bytes(), f.tapeBytes());
            QCOMPARE(d.allocTape().bytes(), d.tapeBytes());
            QCOMPARE(int(f.allocTape().parts.size()), f.tapeParts());
            const std::int64_t hb = 7 * 5;
            const std::int64_t state = c == CellKind::Lstm ? 2 * hb : hb;
            const std::int64_t tape = c == CellKind::Rnn ? 2 * hb : c == CellKind::Gru ? 6 * hb : 8 * hb;
            QCOMPARE(f.stateBytes(), state * 4);
            QCOMPARE(d.tapeBytes(), tape * 8);
            // A taped forward writes into the buffers it was given and never grows them.
            Network<float> net(Shape{c, 3, 7, 5, 2}, LossKind::SquaredError, 1);
            Batch<float> b;
            b.inputs.assign(1, Mat<float>::Ones(3, 5));
            Tensors<float> in = f.zeroState(), out = f.allocState(), tp = f.allocTape();
            const float* before = tp.parts.back().data();
            net.forward(b, 1, in, out, &tp);
            QCOMPARE(tp.parts.back().data(), before);
            QCOMPARE(tp.bytes(), f.tapeBytes());
            QCOMPARE(out.bytes(), f.stateBytes());
        }
    }

    void tasksMakeTheirShapes() {
        auto copy = Task::make("copy", {}, 0);
        QVERIFY(copy.ok());
        QCOMPARE(copy->inputWidth(), 10);
        QCOMPARE(copy->outputWidth(), 9);
        std::mt19937_64 rng(1);
        Batch<float> b = copy->sample<float>(20, 4, rng);
        QCOMPARE(b.length(), 20);
        QCOMPARE(b.size(), 4);
        // The symbols shown in steps 1..6 are the targets of the last 6 steps; blank (class 8) before.
        for (int s = 0; s < 4; ++s)
            for (int t = 1; t <= 6; ++t) {
                Eigen::Index sym;
                b.inputs[std::size_t(t - 1)].col(s).maxCoeff(&sym);
                QCOMPARE(b.classes[std::size_t(20 - 6 + t - 1)][std::size_t(s)], int(sym));
                QCOMPARE(b.classes[std::size_t(t - 1)][std::size_t(s)], 8);
            }
        auto bad = Task::make("copy", {}, 2);
        QVERIFY(!bad.ok());
        QVERIFY(Task::make("nope", {}, 0).error().find("known: copy") != std::string::npos);
        QVERIFY(!Task::make("text", "/nonexistent/file.txt", 0).ok());
        auto adding = Task::make("adding", {}, 5);
        QVERIFY(adding.ok());
        Batch<double> a = adding->sample<double>(10, 3, rng);
        // The last target is the sum of the two marked values.
        for (int s = 0; s < 3; ++s) {
            double sum = 0;
            int marks = 0;
            for (int t = 0; t < 10; ++t)
                if (a.inputs[std::size_t(t)](1, s) == 1.0) {
                    sum += a.inputs[std::size_t(t)](0, s);
                    ++marks;
                }
            QCOMPARE(marks, 2);
            QCOMPARE(a.values[9](0, s), sum);
        }
    }
};

QTEST_GUILESS_MAIN(TestCells)
#include "tst_cells.moc"
