// Lessons in the window (widgets/lessonmode.h): a ckpt-lesson file opens at its first scene; Page Down and Page Up
// step through the scenes, each a new document with the scene's problem, machine, scheduler, parameters and budget,
// on the tab the scene names, with its caption for the class below the charts.
#include "lessonmode.h"
#include "mainwindow.h"
#include "models/document.h"

using namespace ckpt;

bool MainWindow::openLesson(const QString& path) {
    QString error;
    if (!m_lesson->open(path, &error)) return report(error), false;
    if (!showScene(0)) {
        m_lesson->end();
        return false;
    }
    m_files->addRecent(path);
    return true;
}

bool MainWindow::showScene(int k) {
    QString error;
    auto project = m_lesson->sceneProject(k, m_doc->project(), &error);
    if (!project) {
        if (!error.isEmpty()) report(error);
        return false;
    }
    m_doc->setProject(*project);
    newDocument({}, m_lesson->path(), true);
    showChartTab(m_lesson->sceneTab(k));
    m_lesson->showScene(k);
    m_lastError.clear();
    return true;
}

int MainWindow::sceneIndex() const {
    return m_lesson->scene();
}

QString MainWindow::lessonCaption() const {
    return m_lesson->caption();
}
