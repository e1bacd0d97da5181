#include "heldnowpanel.h"

#include "plots/narrations.h"
#include "plots/replot.h"
#include "util/units.h"

#include <QLabel>
#include <QRegularExpression>
#include <QVBoxLayout>

using namespace ckpt;

HeldNowPanel::HeldNowPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    m_sentence = new QLabel(this);
    m_sentence->setWordWrap(true);
    m_sentence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_levels = new QLabel(this);
    m_levels->setWordWrap(true);
    m_levels->setTextFormat(Qt::RichText);
    m_levels->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_sentence);
    layout->addWidget(m_levels);
    layout->addStretch();
    setMinimumWidth(180); // any wider and the window no longer fits a small screen (tst_views)
    setToolTip(tr("What the action the Sweep tab has reached does, and what each memory level holds once it is done"));
    refresh();
}

void HeldNowPanel::setRun(std::shared_ptr<const Run> run, const Problem& problem, const Hardware& hw) {
    m_run = std::move(run);
    m_hw = hw;
    const Chain* chain = problem.isGraph() ? nullptr : problem.chain();
    m_chain = chain ? std::optional<Chain>(*chain) : std::nullopt;
    m_told.reset();
    const Plan* plan = m_run ? m_run->chainPlan() : nullptr;
    m_action =
        plan && chain && m_run->feasible && plan->actions.size() <= kMaxActions ? int(plan->actions.size()) - 1 : -1;
    // On a hidden tab the narration waits until the panel is shown or asked for it (ensureCurrent).
    m_stale = true;
    if (!hiddenInShownWindow(this)) ensureCurrent();
}

void HeldNowPanel::ensureCurrent() const {
    if (!m_stale) return;
    m_stale = false;
    if (m_chain) m_told = sharedNarration(m_run, *m_chain, m_hw);
    if (!m_told) m_action = -1;
    const_cast<HeldNowPanel*>(this)->refresh();
}

const Narration* HeldNowPanel::narration() const {
    ensureCurrent();
    return m_told.get();
}

void HeldNowPanel::showEvent(QShowEvent* e) {
    ensureCurrent();
    QWidget::showEvent(e);
}

void HeldNowPanel::setAction(int action) {
    m_action = action;
    if (!m_stale) refresh();
}

QString HeldNowPanel::sentence() const {
    ensureCurrent();
    return m_sentence->text();
}

QString HeldNowPanel::heldText() const {
    ensureCurrent();
    QString plain = m_levels->text();
    plain.replace("<br>", "\n");
    plain.remove(QRegularExpression("<[^>]*>"));
    return plain;
}

// "x0 x218 x651–x724": runs of three or more consecutive states as ranges, so a dense plan's list stays readable.
static QString states(const std::vector<int>& js) {
    QStringList out;
    for (std::size_t i = 0; i < js.size();) {
        std::size_t j = i;
        while (j + 1 < js.size() && js[j + 1] == js[j] + 1)
            ++j;
        if (j - i >= 2) {
            out << QString("x%1–x%2").arg(js[i]).arg(js[j]);
        } else {
            for (std::size_t k = i; k <= j; ++k)
                out << "x" + QString::number(js[k]);
        }
        i = j + 1;
    }
    return out.join(' ');
}

void HeldNowPanel::refresh() {
    if (!m_told) {
        const Plan* plan = m_run ? m_run->chainPlan() : nullptr;
        m_sentence->setText(!m_run  ? tr("Run a scheduler (F5) to follow its plan here")
                            : !plan ? tr("The narration follows a chain's plan")
                            : plan->actions.size() > kMaxActions
                                ? tr("The plan has %1 actions: too long to narrate here (ckpt explain prints it)")
                                      .arg(plan->actions.size())
                                : tr("The plan could not be narrated"));
        m_levels->clear();
        return;
    }
    if (m_action < 0 || m_action >= int(m_told->actions.size())) {
        m_sentence->setText(tr("Before the first action: x0, the input, is in level 0"));
        m_levels->clear();
        return;
    }
    const NarratedAction& a = m_told->actions[std::size_t(m_action)];
    m_sentence->setText(tr("<b>Action %1 of %2</b>: %3")
                            .arg(m_action)
                            .arg(m_told->actions.size())
                            .arg(QString::fromStdString(a.sentence).toHtmlEscaped()));
    QStringList parts;
    for (int l = 0; l < m_hw.levelCount() && l < int(a.held.states.size()); ++l) {
        const auto& held = a.held.states[std::size_t(l)];
        QString name = QString::fromStdString(m_hw.level(l).name);
        if (name.isEmpty()) name = tr("level %1").arg(l);
        std::int64_t limit = m_hw.isUnbounded(l) ? 0 : m_hw.level(l).capacity_bytes;
        if (l == 0 && m_run->budget_bytes > 0)
            limit = limit ? std::min(limit, m_run->budget_bytes) : m_run->budget_bytes;
        QString head =
            tr("<b>L%1 %2</b>: %3")
                .arg(l)
                .arg(name.toHtmlEscaped(), QString::fromStdString(formatBytes(double(a.bytes[std::size_t(l)]))));
        if (limit > 0) head += tr(" of %1").arg(QString::fromStdString(formatBytes(double(limit))));
        QStringList lines{head};
        const QString xs = ::states(held);
        if (l == 0) {
            const QString cps = ::states(a.checkpoints);
            QString inUse = m_told->slot_count > 0
                                ? tr(" (%1 of %2 slots)").arg(a.checkpoints.size()).arg(m_told->slot_count)
                                : QString();
            lines << tr("checkpoints: %1%2").arg(cps.isEmpty() ? tr("none") : cps, inUse);
            lines << tr("states: %1").arg(xs.isEmpty() ? tr("none") : xs);
            QStringList tapes;
            for (int t : a.held.tapes)
                tapes << QString::number(t);
            lines << tr("tapes of steps: %1").arg(tapes.isEmpty() ? tr("none") : tapes.join(' '));
            lines << tr("gradient: %1").arg(a.held.gradient >= 0 ? "x" + QString::number(a.held.gradient) : tr("none"));
        } else {
            lines << tr("states: %1").arg(xs.isEmpty() ? tr("none") : xs);
            if (std::size_t(l) < a.held.slowTapes.size() && !a.held.slowTapes[std::size_t(l)].empty()) {
                QStringList tapes;
                for (int t : a.held.slowTapes[std::size_t(l)])
                    tapes << QString::number(t);
                lines << tr("tapes of steps: %1").arg(tapes.join(' '));
            }
        }
        parts << lines.join("<br>");
    }
    m_levels->setText(parts.join("<br><br>"));
}
