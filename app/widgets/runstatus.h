#pragma once
// The status bar's view of what runs: "Solving checkmate… 3.2 s" or Run all's progress, a busy bar and Cancel. It
// appears only once a run has taken a moment, so that fast solves (the slider's) do not flicker.
#include <QWidget>

class RunController;
class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;

class RunStatus : public QWidget {
    Q_OBJECT
public:
    RunStatus(RunController* runs, QWidget* parent = nullptr);
    QString text() const; // what the label says (also while hidden)
    QPushButton* cancelButton() const { return m_cancel; }
    static constexpr int kDelayMs = 300; // shown after this long

private:
    void refresh();
    RunController* m_runs;
    QLabel* m_label;
    QProgressBar* m_bar;
    QPushButton* m_cancel;
    QTimer* m_tick;
};
