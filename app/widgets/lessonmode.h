#pragma once
// A lesson as a mode of the window: the open ckpt-lesson file, the scene shown, its caption in a banner and the Page
// Down / Page Up actions. Its rules: a scene is a new document built from the scene (sceneProject); any other
// document ends the lesson (end); the window asks about unsaved work before a scene replaces it.
#include "io/lesson_io.h"
#include "io/project_io.h"

#include <QObject>
#include <QString>
#include <memory>
#include <optional>

class QAction;
class QLabel;
class QWidget;

class LessonMode : public QObject {
    Q_OBJECT
public:
    // The banner is made as a child of `bannerParent`, hidden until a scene is shown.
    LessonMode(QWidget* bannerParent, QObject* parent = nullptr);
    QLabel* banner() const { return m_banner; }
    // Page Down and Page Up: enabled where there is a scene to go to.
    void setActions(QAction* next, QAction* back);

    // Reads the lesson (the window then shows its first scene); false, with the reason, if it cannot be read.
    bool open(const QString& path, QString* error);
    bool active() const { return m_lesson != nullptr; }
    int scene() const { return m_lesson ? m_scene : -1; }
    QString path() const { return m_path; }
    // Scene k's problem, machine, scheduler, parameters and budget on `base` (the window's project, for what the
    // scene does not say); nothing, with the file and the place in `error`, when one of them cannot be read.
    std::optional<ckpt::Project> sceneProject(int k, const ckpt::Project& base, QString* error) const;
    QString sceneTab(int k) const; // the chart tab the scene opens on
    void showScene(int k);         // the caption of scene k in the banner
    void end();                    // the lesson closed: no banner, no scenes to step to
    QString caption() const;       // the banner's text while a lesson is open (else empty)

private:
    void updateActions();

    std::unique_ptr<ckpt::Lesson> m_lesson;
    QString m_path;
    int m_scene = -1;
    QLabel* m_banner;
    QAction *m_next = nullptr, *m_back = nullptr;
};
