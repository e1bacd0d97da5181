// The trainer tab's Stop, and quitting the explorer while it trains: the worker is joined and the disk level's
// scratch folder is gone. The waits are bounded by a count of polls, not by the machine's speed.
#include "widgets/trainerpanel.h"

#include "plots/timelineview.h"

#include <QComboBox>
#include <QDirIterator>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QStringList everythingUnder(const QString& dir) {
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        out << QDir(dir).relativeFilePath(it.next());
    return out;
}

// A long run with a disk level (async-multistage offloads to files) in `scratch`.
void startLongRun(TrainerPanel& t, const QString& scratch) {
    t.setScratchFolder(scratch);
    t.hiddenBox()->setValue(8);
    t.lengthBox()->setValue(200);
    t.iterationsBox()->setValue(100000);
    t.schedulerBox()->setCurrentText("async-multistage");
    t.start();
}

// Polls until the run trains with its level's file in `scratch`.
bool trainingOnDisk(TrainerPanel& t, const QString& scratch) {
    for (int k = 0; k < 6000; ++k) {
        if (t.iterationsDone() > 0 && everythingUnder(scratch).filter("states.bin").size() == 1) return true;
        if (!t.running()) return false;
        QTest::qWait(10);
    }
    return false;
}

} // namespace

class TestTrainerPanel : public QObject {
    Q_OBJECT

private slots:
    void stopRemovesTheScratchFiles() {
        QTemporaryDir scratch;
        TrainerPanel t;
        QSignalSpy done(&t, &TrainerPanel::finished);
        startLongRun(t, scratch.path());
        QVERIFY2(trainingOnDisk(t, scratch.path()), qPrintable(t.status()));
        t.cancel();
        QVERIFY(done.wait(120000));
        t.wait();
        QVERIFY(!t.running());
        QVERIFY2(t.status().startsWith("Stopped after"), qPrintable(t.status()));
        QVERIFY(t.iterationsDone() < 100000);
        QCOMPARE(everythingUnder(scratch.path()), QStringList());
    }

    // The measured and predicted charts' level pickers were sized when the panel was first shown, empty, and cut
    // the level's name short once a run filled them ("L0 memo").
    void theLevelPickersShowTheWholeName() {
        TrainerPanel t;
        t.resize(1200, 800);
        t.show();
        QVERIFY(QTest::qWaitForWindowExposed(&t));
        // Before a run, the charts say how to fill them.
        QCOMPARE(t.measuredView()->emptyHint(), QString("Train to measure the plan's last iteration here"));
        QCOMPARE(t.predictedView()->emptyHint(),
                 QString("Train to see the simulator's timeline of the same plan here"));
        QSignalSpy done(&t, &TrainerPanel::finished);
        t.hiddenBox()->setValue(8);
        t.lengthBox()->setValue(100);
        t.iterationsBox()->setValue(2);
        t.start();
        QVERIFY(done.wait(120000));
        t.wait();
        QCoreApplication::processEvents();
        QVERIFY2(t.status().startsWith("iteration 2"), qPrintable(t.status()));
        int pickers = 0;
        for (QComboBox* box : t.findChildren<QComboBox*>()) {
            if (box->toolTip() != "Which memory level the lower chart shows") continue;
            ++pickers;
            QVERIFY(box->count() > 0);
            QComboBox probe; // what a picker holding these names asks for
            for (int i = 0; i < box->count(); ++i)
                probe.addItem(box->itemText(i));
            QVERIFY2(box->width() >= probe.sizeHint().width(), qPrintable(QString("'%1': %2 px wide, %3 px needed")
                                                                              .arg(box->currentText())
                                                                              .arg(box->width())
                                                                              .arg(probe.sizeHint().width())));
        }
        QCOMPARE(pickers, 2);
    }

    void quittingRemovesTheScratchFiles() {
        QTemporaryDir scratch;
        auto* t = new TrainerPanel;
        startLongRun(*t, scratch.path());
        QVERIFY2(trainingOnDisk(*t, scratch.path()), qPrintable(t->status()));
        delete t; // what quitting does to the window's tabs: the run is stopped and joined
        QCOMPARE(everythingUnder(scratch.path()), QStringList());
        QCoreApplication::processEvents(); // what the run posted finds no panel, and does nothing
    }
};

QTEST_MAIN(TestTrainerPanel)
#include "tst_trainerpanel.moc"
