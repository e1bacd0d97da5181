#pragma once
// "Held now": the sentence for the action the Sweep tab has reached and, per memory level, what is held once it is
// done (checkpoints with the slots in use, tapes, the gradient, bytes against the budget or capacity), from the
// narration of the shown plan (run/narrate.h). For teaching: step or play the Sweep tab and read along.
#include "model/hardware.h"
#include "model/problem.h"
#include "run/narrate.h"
#include "run/runner.h"

#include <QWidget>
#include <memory>
#include <optional>

class QLabel;

class HeldNowPanel : public QWidget {
    Q_OBJECT
public:
    // Plans longer than this are not narrated (the panel says so): the narration keeps what is held per action.
    static constexpr std::size_t kMaxActions = ckpt::kMaxNarratedActions;

    explicit HeldNowPanel(QWidget* parent = nullptr);
    // A chain problem's plan is narrated; any other run (none, a graph's, too long) leaves the panel saying why.
    void setRun(std::shared_ptr<const ckpt::Run> run, const ckpt::Problem& problem, const ckpt::Hardware& hw);
    void setAction(int action); // -1: before the first action
    int action() const { return m_action; }
    const ckpt::Narration* narration() const; // null: not narrated
    QString sentence() const;                 // what the panel says of the action
    QString heldText() const;                 // the levels, as plain text

protected:
    void showEvent(QShowEvent* e) override;

private:
    void refresh();
    void ensureCurrent() const; // narrates the run set while the panel was hidden

    std::shared_ptr<const ckpt::Run> m_run;
    ckpt::Hardware m_hw = ckpt::Hardware::unbounded();
    std::optional<ckpt::Chain> m_chain;
    mutable std::shared_ptr<const ckpt::Narration> m_told;
    mutable int m_action = -1;
    mutable bool m_stale = false; // the run changed while the panel was hidden: not yet narrated
    QLabel* m_sentence;
    QLabel* m_levels;
};
