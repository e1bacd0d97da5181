#include "runstatus.h"

#include "models/runcontroller.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>

RunStatus::RunStatus(RunController* runs, QWidget* parent) : QWidget(parent), m_runs(runs) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_label = new QLabel(this);
    m_bar = new QProgressBar(this);
    m_bar->setMaximumWidth(200);
    m_bar->setTextVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setToolTip(tr("Stop the runs in progress (Esc)"));
    m_cancel->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed); // the status bar would stretch it
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    m_tick = new QTimer(this);
    m_tick->setInterval(200); // the elapsed time in tenths of a second would be busy; five updates a second suffice
    connect(m_tick, &QTimer::timeout, this, &RunStatus::refresh);
    connect(m_cancel, &QPushButton::clicked, runs, &RunController::cancel);
    connect(runs, &RunController::runStarted, this, [this] {
        m_tick->start();
        refresh();
    });
    connect(runs, &RunController::runFinished, this, &RunStatus::refresh);
    connect(runs, &RunController::progressChanged, this, &RunStatus::refresh);
    setVisible(false);
}

QString RunStatus::text() const {
    return m_label->text();
}

void RunStatus::refresh() {
    if (!m_runs->isBusy()) {
        m_tick->stop();
        m_label->clear();
        return setVisible(false);
    }
    m_label->setText(m_runs->busyText());
    if (m_runs->isComparing()) {
        m_bar->setRange(0, std::max(1, m_runs->compareTotal()));
        m_bar->setValue(m_runs->compareDone());
    } else {
        m_bar->setRange(0, 0); // a solve says nothing of its progress: a busy bar
    }
    if (isHidden() && m_runs->busySeconds() * 1000 >= kDelayMs) setVisible(true);
}
