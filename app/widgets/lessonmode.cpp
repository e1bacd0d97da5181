#include "lessonmode.h"

#include "examplefiles.h"
#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/presets.h"
#include "run/budget.h"

#include <QAction>
#include <QLabel>
#include <filesystem>

using namespace ckpt;

LessonMode::LessonMode(QWidget* bannerParent, QObject* parent) : QObject(parent), m_banner(new QLabel(bannerParent)) {
    m_banner->setObjectName("lessonBanner");
    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::RichText);
    m_banner->setStyleSheet("QLabel#lessonBanner { background: #eef4fb; color: #1a1a1a; padding: 6px; }");
    m_banner->setVisible(false);
}

void LessonMode::setActions(QAction* next, QAction* back) {
    m_next = next, m_back = back;
    updateActions();
}

bool LessonMode::open(const QString& path, QString* error) {
    auto lesson = loadLesson(path.toStdString());
    if (!lesson) return *error = QString::fromStdString(lesson.error()), false;
    m_lesson = std::make_unique<Lesson>(std::move(*lesson));
    m_path = path;
    m_scene = -1;
    return true;
}

std::optional<Project> LessonMode::sceneProject(int k, const Project& base, QString* error) const {
    if (!m_lesson || k < 0 || k >= int(m_lesson->scenes.size())) return std::nullopt;
    const LessonScene& s = m_lesson->scenes[std::size_t(k)];
    const QString where = tr("%1: scenes[%2]").arg(m_path).arg(k);
    const std::filesystem::path folder = std::filesystem::path(m_path.toStdString()).parent_path();
    auto near = [&](const std::string& p) {
        return std::filesystem::path(p).is_absolute() ? p : (folder / p).string();
    };
    auto loaded = loadChainOrGraph(near(s.problem));
    if (!loaded) return *error = where + ".problem: " + QString::fromStdString(loaded.error()), std::nullopt;
    Project project = base;
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
                *error = where + tr(".hardware: no preset named '%1' (presets: %2; or give a file ending in .json)")
                                     .arg(QString::fromStdString(s.hardware), names);
                return std::nullopt;
            }
        }
        auto h = loadHardware(file);
        if (!h) return *error = where + ".hardware: " + QString::fromStdString(h.error()), std::nullopt;
        project.hardware = *h;
    }
    project.settings.scheduler = s.scheduler;
    project.settings.schedulers.clear();
    project.settings.params[s.scheduler] = s.params;
    project.settings.budget_bytes = 0;
    if (!s.budget.empty()) {
        const Problem problem = project.graph ? Problem(*project.graph) : Problem(project.chain);
        auto b = parseBudgetList(s.budget, problem, project.hardware);
        if (!b) return *error = where + ".budget: " + QString::fromStdString(b.error()), std::nullopt;
        project.settings.budget_bytes = b->front();
    }
    return project;
}

QString LessonMode::sceneTab(int k) const {
    if (!m_lesson || k < 0 || k >= int(m_lesson->scenes.size())) return {};
    const std::string& tab = m_lesson->scenes[std::size_t(k)].tab;
    return tab.empty() ? QStringLiteral("timeline") : QString::fromStdString(tab);
}

void LessonMode::showScene(int k) {
    if (!m_lesson || k < 0 || k >= int(m_lesson->scenes.size())) return;
    const LessonScene& s = m_lesson->scenes[std::size_t(k)];
    m_scene = k;
    m_banner->setText(tr("<b>%1</b> — scene %2 of %3%4<br>%5<br><i>Page Down: next scene · Page Up: back</i>")
                          .arg(QString::fromStdString(m_lesson->title).toHtmlEscaped())
                          .arg(k + 1)
                          .arg(m_lesson->scenes.size())
                          .arg(s.title.empty() ? QString() : ": " + QString::fromStdString(s.title).toHtmlEscaped())
                          .arg(QString::fromStdString(s.caption).toHtmlEscaped()));
    m_banner->setVisible(true);
    updateActions();
}

void LessonMode::end() {
    m_lesson.reset();
    m_scene = -1;
    updateActions();
}

QString LessonMode::caption() const {
    return m_lesson && m_banner->isVisible() ? m_banner->text() : QString();
}

void LessonMode::updateActions() {
    if (!m_lesson) m_banner->setVisible(false);
    if (!m_next) return;
    const int count = m_lesson ? int(m_lesson->scenes.size()) : 0;
    m_next->setEnabled(m_lesson && m_scene + 1 < count);
    m_back->setEnabled(m_lesson && m_scene > 0);
}
