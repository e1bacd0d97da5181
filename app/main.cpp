// ckpt-explorer [FILE] | ckpt-explorer --screenshot OUT.png [FILE]
#include "widgets/mainwindow.h"
#include "widgets/trainerpanel.h"

#include <QEventLoop>

#include <QApplication>
#include <QCommandLineParser>
#include <QTabWidget>
#include <cstdio>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("ckpt-explorer");
    QApplication::setOrganizationName("checkpoint-explorer");
    QApplication::setApplicationVersion("0.1.0");
    QCommandLineParser parser;
    parser.setApplicationDescription("Checkpoint Explorer: compare how backpropagation trades memory for time");
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption shot(
        "screenshot",
        "Open FILE (or the default example), run the default comparison, write the window to PNG and exit.", "PNG");
    parser.addOption(shot);
    QCommandLineOption tab(
        "tab",
        "With --screenshot: the tab to show (timeline, sweep, tradeoff, comparison, trainer; trainer trains first).",
        "TAB", "timeline");
    parser.addOption(tab);
    parser.addPositionalArgument("file", "A project, chain or hardware file to open.", "[FILE]");
    parser.process(app);

    MainWindow window;
    const bool screenshot = parser.isSet(shot);
    window.setInteractive(!screenshot);
    window.openDefault();
    if (!parser.positionalArguments().isEmpty() && !window.openFile(parser.positionalArguments().front())) {
        if (screenshot) {
            std::fprintf(stderr, "ckpt-explorer: %s\n", qPrintable(window.lastError()));
            return 2;
        }
    }
    if (!screenshot) {
        window.show();
        if (parser.positionalArguments().isEmpty()) window.offerAutosave();
        window.runAll();
        return app.exec();
    }
    window.resize(1600, 1000);
    window.show();
    window.runAllNow();
    const QStringList tabs = {"timeline", "sweep", "tradeoff", "comparison", "trainer"};
    const int index = tabs.indexOf(parser.value(tab));
    if (index < 0) {
        std::fprintf(stderr, "ckpt-explorer: --tab: expected one of %s\n", qPrintable(tabs.join(", ")));
        return 2;
    }
    window.chartTabs()->setCurrentIndex(index);
    if (parser.value(tab) == "trainer") {
        QEventLoop loop;
        QObject::connect(window.trainerPanel(), &TrainerPanel::finished, &loop, &QEventLoop::quit);
        window.trainerPanel()->start();
        loop.exec();
    }
    QApplication::processEvents();
    const QString out = parser.value(shot);
    if (!window.grab().save(out)) {
        std::fprintf(stderr, "ckpt-explorer: cannot write %s\n", qPrintable(out));
        return 2;
    }
    std::printf("ckpt-explorer: wrote %s\n", qPrintable(out));
    return 0;
}
