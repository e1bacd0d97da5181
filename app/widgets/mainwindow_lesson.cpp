// Lessons in the window: a ckpt-lesson file opens at its first scene; Page Down and Page Up step through the scenes,
// each setting the problem, the machine, the scheduler, its parameters and the budget, and the banner above the
// charts shows the scene's caption for the class.
#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/presets.h"
#include "io/project_io.h"
#include "mainwindow.h"
#include "models/document.h"
#include "run/budget.h"

#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QStatusBar>
#include <filesystem>

using namespace ckpt;

bool MainWindow::openLesson(const QString& path) {
    auto lesson = loadLesson(path.toStdString());
    if (!lesson) return report(QString::fromStdString(lesson.error())), false;
    m_lesson = std::make_unique<Lesson>(std::move(*lesson));
    m_lessonPath = path;
    if (!showScene(0)) {
        m_lesson.reset();
        updateLessonActions();
        return false;
    }
    addRecent(path);
    return true;
}

bool MainWindow::showScene(int k) {
    if (!m_lesson || k < 0 || k >= int(m_lesson->scenes.size())) return false;
    const LessonScene& s = m_lesson->scenes[std::size_t(k)];
    const QString where = tr("%1: scenes[%2]").arg(m_lessonPath).arg(k);
    const std::filesystem::path folder = std::filesystem::path(m_lessonPath.toStdString()).parent_path();
    auto near = [&](const std::string& p) {
        return std::filesystem::path(p).is_absolute() ? p : (folder / p).string();
    };
    auto loaded = loadChainOrGraph(near(s.problem));
    if (!loaded) return report(where + ".problem: " + QString::fromStdString(loaded.error())), false;
    Project project = m_doc->project();
    if (const Graph* g = loaded->graph()) {
        project.graph = *g;
    } else {
        project.chain = *loaded->chain();
        project.graph.reset();
    }
    project.hardware = Hardware::unbounded();
    if (!s.hardware.empty()) {
        // A file beside the lesson, or a shipped preset's name ("gpu-a100"), as ckpt lesson and figure specs take it.
        std::string file = near(s.hardware);
        std::error_code ec;
        if (isPresetName(s.hardware) && !std::filesystem::exists(file, ec)) {
            const std::vector<std::filesystem::path> roots{resourceRoot().toStdString()};
            file = presetPath(s.hardware, roots);
            if (file.empty()) {
                QString names;
                for (const std::string& n : presetNames(roots))
                    names += (names.isEmpty() ? "" : ", ") + QString::fromStdString(n);
                return report(where +
                              tr(".hardware: no preset named '%1' (presets: %2; or give a file ending in .json)")
                                  .arg(QString::fromStdString(s.hardware), names)),
                       false;
            }
        }
        auto h = loadHardware(file);
        if (!h) return report(where + ".hardware: " + QString::fromStdString(h.error())), false;
        project.hardware = *h;
    }
    project.settings.scheduler = s.scheduler;
    project.settings.schedulers.clear();
    project.settings.params[s.scheduler] = s.params;
    project.settings.budget_bytes = 0;
    if (!s.budget.empty()) {
        const Problem problem = project.graph ? Problem(*project.graph) : Problem(project.chain);
        auto b = parseBudgetList(s.budget, problem, project.hardware);
        if (!b) return report(where + ".budget: " + QString::fromStdString(b.error())), false;
        project.settings.budget_bytes = b->front();
    }
    m_doc->setProject(project);
    m_path.clear();
    m_sourcePath = m_lessonPath;
    newDocument(true);
    m_scene = k;
    showChartTab(s.tab.empty() ? QStringLiteral("timeline") : QString::fromStdString(s.tab));
    m_lessonBanner->setText(
        tr("<b>%1</b> — scene %2 of %3%4<br>%5<br><i>Page Down: next scene · Page Up: back</i>")
            .arg(QString::fromStdString(m_lesson->title).toHtmlEscaped())
            .arg(k + 1)
            .arg(m_lesson->scenes.size())
            .arg(s.title.empty() ? QString() : ": " + QString::fromStdString(s.title).toHtmlEscaped())
            .arg(QString::fromStdString(s.caption).toHtmlEscaped()));
    m_lessonBanner->setVisible(true);
    updateLessonActions();
    m_lastError.clear();
    return true;
}

QString MainWindow::lessonCaption() const {
    return m_lesson && m_lessonBanner->isVisible() ? m_lessonBanner->text() : QString();
}

void MainWindow::updateLessonActions() {
    if (!m_lessonNext) return;
    const int count = m_lesson ? int(m_lesson->scenes.size()) : 0;
    m_lessonNext->setEnabled(m_lesson && m_scene + 1 < count);
    m_lessonBack->setEnabled(m_lesson && m_scene > 0);
    if (!m_lesson) m_lessonBanner->setVisible(false);
}
