#pragma once
// The real trainer in the window: pick a cell, sizes, a task and a plan; train in the background with a live loss
// curve, the store's measured peak beside the predicted one, and the measured Gantt beside the predicted Gantt.
#include "trainer/trainer.h"

#include <QPointer>
#include <QWidget>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

class QComboBox;
class QSpinBox;
class QPushButton;
class QLabel;
class QCustomPlot;
class TimelineView;

class TrainerPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainerPanel(QWidget* parent = nullptr);
    ~TrainerPanel() override;

    void start(); // in the background
    // Stops the run at its next action (it then removes its scratch files); quitting does the same and joins.
    void cancel();
    // Where the disk level's files go (empty: the system's temporary folder).
    void setScratchFolder(const QString& folder) { m_scratch = folder; }
    bool running() const { return m_thread.joinable() && !m_done; }
    void wait(); // until the background run ends (tests)
    int iterationsDone() const { return m_iterations; }
    QString status() const;
    TimelineView* measuredView() const { return m_measured; }
    TimelineView* predictedView() const { return m_predicted; }
    QComboBox* schedulerBox() const { return m_scheduler; }
    QSpinBox* iterationsBox() const { return m_iters; }
    QSpinBox* lengthBox() const { return m_length; }
    QSpinBox* hiddenBox() const { return m_hidden; }

signals:
    void finished();

private:
    struct Job {
        ckpt::trainer::TrainerConfig config;
        int iterations = 0;
        std::string scheduler;
        int percent = 0;
    };
    // On the worker thread: profile, plan, train; the status to show at the end (empty: the last iteration's).
    QString train(const Job& job);
    static QString stoppedText(int iterations);
    static void post(const QPointer<TrainerPanel>& self, std::function<void(TrainerPanel*)> fn);

    QString m_scratch;
    QComboBox *m_cell, *m_task, *m_scheduler;
    QSpinBox *m_hidden, *m_batch, *m_length, *m_iters, *m_budget;
    QPushButton *m_run, *m_stop;
    QLabel* m_status;
    QCustomPlot* m_loss;
    TimelineView *m_measured, *m_predicted;
    std::thread m_thread;
    std::atomic<bool> m_cancel{false};
    std::atomic<bool> m_done{true};
    int m_iterations = 0;
};
