#pragma once
// The Pipeline tab: the open chain cut into stages over devices in a line, GPipe's schedule of micro-batches with
// rematerialisation (sim/pipeline.h). Controls for the stages, the micro-batches, each device's memory, the link and
// rematerialisation; the Gantt has a lane per device and per link, the memory chart one device at a time (its box);
// a line above gives the cuts, the bubble against (K - 1) / (M + K - 1) and each device's peak.
#include "model/chain.h"
#include "sim/pipeline.h"

#include <QWidget>
#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class TimelineView;

class PipelineView : public QWidget {
    Q_OBJECT
public:
    explicit PipelineView(QWidget* parent = nullptr);
    // The chain to cut (nullopt: a graph that is not a chain; the tab says so).
    void setChain(std::optional<ckpt::Chain> chain);
    void setSetup(const ckpt::PipelineSetup& setup); // fills the controls (cuts are always chosen here)
    ckpt::PipelineSetup setup() const;               // from the controls; `error` gets what is wrong with them
    QString setupError() const;

    TimelineView* timeline() const { return m_timeline; }
    const ckpt::PipelineRun* run() const { return m_run ? &*m_run : nullptr; }
    QString summary() const; // the line above the charts (plain text)

public slots:
    void refresh(); // runs the pipeline again from the controls

private:
    QSpinBox *m_stages, *m_micro;
    QLineEdit *m_memory, *m_link;
    QCheckBox* m_recompute;
    QLabel* m_summary;
    TimelineView* m_timeline;
    std::optional<ckpt::Chain> m_chain;
    std::optional<ckpt::PipelineRun> m_run;
    mutable QString m_setupError;
};
