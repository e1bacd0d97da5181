// What the window says about its runs (widgets/runactions.h drives them).
#include "mainwindow.h"
#include "models/runcontroller.h"
#include "runstatus.h"
#include "sidebysidepage.h"
#include "summaryline.h"

#include <QLabel>

std::shared_ptr<const ckpt::Run> MainWindow::shownRun() const {
    return m_runs->shownRun();
}

QString MainWindow::staleBanner() const {
    return m_staleBanner->text();
}

QString MainWindow::summary() const {
    return m_summary->text();
}

RunStatus* MainWindow::runStatus() const {
    return findChild<RunStatus*>();
}

QString MainWindow::sideBySideSummary() const {
    return static_cast<SideBySidePage*>(page("side"))->summary();
}
