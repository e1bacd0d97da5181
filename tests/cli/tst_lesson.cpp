// Lessons (io/lesson_io.h, `ckpt lesson`): the shipped lesson solves every scene through the simulator; a bad lesson
// is refused naming the file, the JSON path and what was expected; --check fails a lesson with a scene that does not
// solve.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "common/ckpt_process.h"

using ckpt::test::ckptRun;
using ckpt::test::Output;

class TestLesson : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    const QString m_chain = QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json";

    QString write(const QJsonObject& doc) {
        const QString path = m_dir.filePath("l.ckpt-lesson.json");
        QFile f(path);
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(QJsonDocument(doc).toJson());
        return path;
    }
    QJsonObject lesson(const QJsonArray& scenes) {
        return {{"format", "ckpt-lesson"}, {"version", 1}, {"title", "t"}, {"scenes", scenes}};
    }
    QJsonObject scene(const QJsonObject& extra = {}) {
        QJsonObject s{{"problem", m_chain}, {"scheduler", "revolve"}, {"caption", "c"}};
        for (auto it = extra.begin(); it != extra.end(); ++it)
            s[it.key()] = it.value();
        return s;
    }

private slots:
    // Every scene of examples/lessons/intro solves (runScheduler validates each plan in the simulator), one line of
    // numbers per scene, each followed by its caption.
    void theShippedLessonSolves() {
        Output o =
            ckptRun({"lesson", QString(CKPT_SOURCE_DIR) + "/examples/lessons/intro.ckpt-lesson.json", "--check"});
        QVERIFY2(o.code == 0, o.err.constData());
        const QString out = QString::fromUtf8(o.out);
        QVERIFY(out.startsWith("Trading memory for time in backpropagation (7 scenes)"));
        // One line of numbers per scene (the captions may say "makespan" too).
        QCOMPARE(out.count(QRegularExpression(": makespan \\d")), 7);
        for (const char* s : {"store-all", "periodic", "revolve", "rotor", "offload-dp", "dtr", "checkmate"})
            QVERIFY2(out.contains(QString("   %1 on ").arg(s)), s);
    }

    void badLessonsSayWhereAndWhat() {
        struct Case {
            QJsonObject doc;
            const char* says;
        };
        const QList<Case> cases = {
            {lesson({QJsonObject{{"problem", m_chain}, {"scheduler", "revolve"}}}), "scenes[0]: missing \"caption\""},
            {lesson({scene({{"budget", "10%,20%"}})}), "scenes[0].budget: one budget, not a list"},
            {lesson({scene({{"budget", true}})}), "scenes[0].budget: expected a budget"},
            {lesson({scene({{"params", 3}})}), "scenes[0].params: expected an object"},
            {lesson({scene({{"params", QJsonObject{{"slots", QJsonArray{}}}}})}),
             "scenes[0].params.slots: expected a text or a number"},
            {lesson({scene({{"scheduler", ""}})}), "scenes[0].scheduler: expected a text that is not empty"},
            {lesson({scene({{"tab", "memory"}})}),
             "scenes[0].tab: expected one of timeline, graph, sweep, tradeoff, comparison, side, layout, pipeline, "
             "trainer"},
            {lesson({}), "scenes: expected an array of 1 to 200 scenes"},
            {QJsonObject{{"format", "ckpt-chain"}, {"version", 1}}, "ckpt-lesson"},
        };
        for (const Case& c : cases) {
            const QString path = write(c.doc);
            Output o = ckptRun({"lesson", path});
            QCOMPARE(o.code, 2);
            QVERIFY2(o.err.contains(c.says) && o.err.contains(path.toUtf8()), o.err.constData());
        }
        // A scheduler the registry does not know, found when the scene is solved: named with its scene.
        Output u = ckptRun({"lesson", write(lesson({scene({{"scheduler", "nope"}})}))});
        QCOMPARE(u.code, 2);
        QVERIFY2(u.err.contains("scenes[0]"), u.err.constData());
    }

    // What a scene names is checked when it is solved, and the message says which lesson and scene (the problem's and
    // the machine's own errors named only their file). Hardware presets are taken by name, as figure specs take them;
    // a graph scheduler on a chain says so (it said "unknown scheduler").
    void sceneErrorsNameTheLessonAndTheScene() {
        auto run = [&](const QJsonObject& extra) {
            const QString path = write(lesson({scene(), scene(extra)}));
            return std::make_pair(path, ckptRun({"lesson", path}));
        };
        const auto [p1, missing] = run({{"problem", "no-such-chain.json"}});
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains((p1 + ": scenes[1].problem: ").toUtf8()) &&
                     missing.err.contains("no-such-chain.json"),
                 missing.err.constData());
        const auto [p2, hw] = run({{"hardware", "no-such-hw.json"}});
        QCOMPARE(hw.code, 2);
        QVERIFY2(hw.err.contains((p2 + ": scenes[1].hardware: ").toUtf8()), hw.err.constData());
        const auto [p3, typo] = run({{"hardware", "gpu-a1000"}});
        QCOMPARE(typo.code, 2);
        QVERIFY2(typo.err.contains(
                     (p3 + ": scenes[1].hardware: no file and no hardware preset named 'gpu-a1000'").toUtf8()) &&
                     typo.err.contains("gpu-a100"),
                 typo.err.constData());
        const auto [p4, preset] = run({{"hardware", "gpu-a100"}, {"budget", "50%"}});
        QVERIFY2(preset.code == 0, preset.err.constData());
        QVERIFY2(preset.out.contains("revolve on Small heterogeneous chain, 12 steps, NVIDIA A100 40 GB"),
                 preset.out.constData());
        const auto [p5, graph] = run({{"scheduler", "checkmate"}});
        QCOMPARE(graph.code, 2);
        QVERIFY2(graph.err.contains((p5 + ": scenes[1]: 'checkmate' is a graph scheduler and").toUtf8()),
                 graph.err.constData());
    }

    // A scene below what its scheduler needs is reported as infeasible; only --check makes that a failure.
    void checkFailsAnInfeasibleScene() {
        const QString path = write(lesson({scene(), scene({{"budget", "1KiB"}})}));
        Output plain = ckptRun({"lesson", path});
        QCOMPARE(plain.code, 0);
        QVERIFY(QString::fromUtf8(plain.out).contains("infeasible: revolve"));
        Output checked = ckptRun({"lesson", path, "--check"});
        QCOMPARE(checked.code, 1);
        QVERIFY(checked.err.contains("1 of 2 scenes do not solve"));
    }
};

QTEST_GUILESS_MAIN(TestLesson)
#include "tst_lesson.moc"
