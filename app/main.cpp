// ckpt-explorer [--scene N] [FILE] | ckpt-explorer --screenshot OUT.png [--tab TAB] [--scene N] [FILE]
#include "models/document.h"
#include "widgets/about.h"
#include "widgets/mainwindow.h"
#include "widgets/trainerpanel.h"

#include "util/files.h"

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QIcon>
#include <QMessageBox>
#include <QTabWidget>
#include <cstdio>
#include <exception>
#include <new>

namespace {
int run(QApplication& app, QCommandLineParser& parser, const QCommandLineOption& shot, const QCommandLineOption& tab);
} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("ckpt-explorer");
    QApplication::setOrganizationName("checkpoint-explorer");
    QApplication::setApplicationVersion(appVersion());
    QApplication::setWindowIcon(QIcon(":/icons/ckpt-explorer.svg"));
    QGuiApplication::setDesktopFileName("org.checkpointexplorer.Explorer"); // resources/desktop
    QCommandLineParser parser;
    parser.setApplicationDescription("Checkpoint Explorer: compare how backpropagation trades memory for time");
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption shot(
        "screenshot",
        "Open FILE (or the default example), run the default comparison, write the window to PNG and exit.", "PNG");
    parser.addOption(shot);
    QCommandLineOption tab("tab",
                           "With --screenshot: the tab to show (timeline, graph, sweep, tradeoff, comparison, side, "
                           "layout, pipeline, trainer; trainer trains first; graph needs a graph file). Default: "
                           "timeline, or the tab a lesson's scene names.",
                           "TAB", "timeline");
    parser.addOption(tab);
    QCommandLineOption scene("scene", "With a lesson file: start at scene N (1 is the first).", "N");
    parser.addOption(scene);
    QCommandLineOption action("action",
                              "With --screenshot: put the cursor at the plan's action N (0 is the first): the sweep "
                              "drawn up to it, a line on the timeline, Held now and the chain table at it.",
                              "N");
    parser.addOption(action);
    QCommandLineOption size("size", "With --screenshot: the window's size in pixels, WIDTHxHEIGHT (default 1600x1000).",
                            "WxH", "1600x1000");
    parser.addOption(size);
    parser.addPositionalArgument(
        "file", "A project, chain, graph, hardware or lesson file to open, or an ONNX model to import.", "[FILE]");
    parser.process(app);
    // The runs report their own failures; what still escapes (memory running out in the GUI thread) ends here with
    // a message instead of an abort.
    try {
        return run(app, parser, shot, tab);
    } catch (const std::exception& e) {
        const QString what = dynamic_cast<const std::bad_alloc*>(&e)
                                 ? QObject::tr("out of memory: the problem or a plan is too large for this machine")
                                 : QObject::tr("internal error: %1").arg(QString::fromLocal8Bit(e.what()));
        std::fprintf(stderr, "ckpt-explorer: %s\n", qPrintable(what));
        if (!parser.isSet(shot)) QMessageBox::critical(nullptr, QObject::tr("Checkpoint Explorer"), what);
        return 2;
    }
}

namespace {

int run(QApplication& app, QCommandLineParser& parser, const QCommandLineOption& shot, const QCommandLineOption& tab) {
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
    if (parser.isSet("scene")) {
        bool number = false;
        const int n = parser.value("scene").toInt(&number);
        if (window.sceneIndex() < 0 || !number || !window.showScene(n - 1)) {
            std::fprintf(stderr, "ckpt-explorer: --scene: expected a scene number of the lesson opened, got '%s'\n",
                         qPrintable(parser.value("scene")));
            return 2;
        }
    }
    if (!screenshot) {
        window.fitToScreen();
        window.show();
        // Every start, whatever was opened: work a crashed or killed session autosaved is never dropped unseen.
        window.offerRecovery();
        window.runAll();
        return app.exec();
    }
    const QStringList wh = parser.value("size").split('x');
    const int width = wh.size() == 2 ? wh[0].toInt() : 0, height = wh.size() == 2 ? wh[1].toInt() : 0;
    if (width < 320 || height < 240 || width > 10000 || height > 10000) {
        std::fprintf(stderr, "ckpt-explorer: --size: expected WIDTHxHEIGHT from 320x240 to 10000x10000, got '%s'\n",
                     qPrintable(parser.value("size")));
        return 2;
    }
    window.resize(width, height);
    window.show();
    // A lesson's scene opens on its own tab unless --tab names one.
    const QString tabName = parser.isSet(tab) || window.sceneIndex() < 0 ? parser.value(tab) : window.currentChartTab();
    // The shown plan is the current scheduler's solve (Run all leaves it alone); the graph view needs only that.
    window.runCurrentNow();
    if (tabName != "graph") window.runAllNow();
    if (tabName == "graph" && !window.document()->isGraph()) {
        std::fprintf(stderr, "ckpt-explorer: --tab graph: open a graph file (ckpt-graph) or a graph project\n");
        return 2;
    }
    if (!window.showChartTab(tabName)) {
        std::fprintf(stderr, "ckpt-explorer: --tab: expected one of %s\n",
                     qPrintable(MainWindow::chartTabNames().join(", ")));
        return 2;
    }
    if (tabName == "trainer") {
        QEventLoop loop;
        QObject::connect(window.trainerPanel(), &TrainerPanel::finished, &loop, &QEventLoop::quit);
        window.trainerPanel()->start();
        loop.exec();
    }
    if (parser.isSet("action")) {
        bool number = false;
        const int n = parser.value("action").toInt(&number);
        if (!number || n < 0 || !window.moveCursor(n)) {
            std::fprintf(stderr,
                         "ckpt-explorer: --action: expected an action of the shown plan (0 is the first), got '%s'\n",
                         qPrintable(parser.value("action")));
            return 2;
        }
    }
    QApplication::processEvents();
    const QString out = parser.value(shot);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!window.grab().save(&buffer, "PNG")) {
        std::fprintf(stderr, "ckpt-explorer: cannot encode the screenshot\n");
        return 2;
    }
    if (auto ok = ckpt::writeTextFileAtomic(out.toStdString(), png.toStdString()); !ok) {
        std::fprintf(stderr, "ckpt-explorer: %s\n", ok.error().c_str());
        return 2;
    }
    std::printf("ckpt-explorer: wrote %s\n", qPrintable(out));
    return 0;
}

} // namespace
