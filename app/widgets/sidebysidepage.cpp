#include "sidebysidepage.h"

#include "models/document.h"
#include "models/runcontroller.h"
#include "plots/timelineview.h"
#include "run/runner.h"
#include "util/units.h"

#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

using namespace ckpt;

SideBySidePage::SideBySidePage(Document* doc, RunController* runs, QWidget* parent)
    : ChartPage("side", doc, parent), m_runs(runs) {
    auto* l = new QVBoxLayout(this);
    m_delta = new QLabel(
        tr("Pin a plan (Run ▸ Pin the shown plan, Ctrl+B), then show another: both appear here on one time axis."),
        this);
    m_delta->setWordWrap(true);
    m_shown = new TimelineView(this);
    m_pinned = new TimelineView(this);
    m_pinned->setEmptyText(tr("Nothing pinned: Run ▸ Pin the shown plan (Ctrl+B) keeps it here"));
    l->addWidget(m_delta);
    l->addWidget(m_shown, 1);
    l->addWidget(m_pinned, 1);
    // One time axis for both: whichever is zoomed, the other follows.
    connect(m_shown, &TimelineView::timeRangeChanged, m_pinned,
            [this](double a, double b) { m_pinned->setTimeRange(QCPRange(a, b)); });
    connect(m_pinned, &TimelineView::timeRangeChanged, m_shown,
            [this](double a, double b) { m_shown->setTimeRange(QCPRange(a, b)); });
    setDescription(
        tr("The shown plan above a pinned one (Ctrl+B), on one time axis, with their differences"),
        tr("Pin a plan with Ctrl+B, then show another (Run current, or a point of the Trade-off): both are drawn on "
           "one time axis, and the line above says what differs (time, peak, recomputations, copies)."));
}

QString SideBySidePage::summary() const {
    const_cast<SideBySidePage*>(this)->ensureCurrent(); // what it says is what it would show
    return m_delta->text();
}

QList<QCustomPlot*> SideBySidePage::charts() const {
    return {m_shown->plot(), m_pinned->plot()};
}

QString SideBySidePage::nothingToExport() const {
    return m_runs->pinned() ? QString()
                            : tr("Side by side shows nothing yet: pin a plan first (Run ▸ Pin the shown plan)");
}

void SideBySidePage::refresh(const std::shared_ptr<const Run>& shown) {
    const Hardware hw = document()->hardware();
    const auto pinned = m_runs->pinned();
    m_shown->setRun(shown, hw);
    m_pinned->setRun(pinned, hw);
    // One legend for both charts where the pinned one's names everything the shown one draws: at 1024 x 700 two
    // legends left each chart too short for its own (its rows drawn over each other, the memory axis's labels too).
    bool covered = pinned != nullptr;
    const QStringList below = m_pinned->legendEntries();
    for (const QString& entry : m_shown->legendEntries())
        covered = covered && below.contains(entry);
    m_shown->setLegendShown(!covered);
    // The lower chart holds the legend's rows on top of what the upper one holds: a fifth more of the height.
    auto* column = static_cast<QVBoxLayout*>(layout());
    column->setStretchFactor(m_shown, covered ? 4 : 1);
    column->setStretchFactor(m_pinned, covered ? 5 : 1);
    if (!pinned) {
        const QString unpinned = m_runs->unpinNote();
        m_delta->setText((unpinned.isEmpty() ? QString() : unpinned + ". ") +
                         tr("Pin a plan (Run ▸ Pin the shown plan, Ctrl+B), then show another: both appear here on "
                            "one time axis."));
        return;
    }
    if (!shown || !shown->timeline || !pinned->timeline) return;
    // One axis for both: the longer plan sets it.
    double end = std::max(shown->timeline->totals.makespan_s, pinned->timeline->totals.makespan_s) * 1.01;
    m_shown->setTimeRange(QCPRange(0, end));
    m_pinned->setTimeRange(QCPRange(0, end));
    const Totals &a = shown->timeline->totals, &b = pinned->timeline->totals;
    auto name = [](const Run& r) {
        return QString::fromStdString(r.scheduler + " " + formatParams(r.params, "\u00a0 ")).trimmed().toHtmlEscaped();
    };
    double dt = a.makespan_s - b.makespan_s;
    double dm = double(a.peak_bytes[0]) - double(b.peak_bytes[0]);
    m_delta->setText(tr("<b>top</b> %1 · <b>bottom (pinned)</b> %2<br>makespan %3 vs %4 (Δ %5%6, %7×) · peak L0 %8 vs "
                        "%9 (Δ %10%11) · "
                        "forward steps %12 vs %13 (Δ %14)")
                         .arg(name(*shown), name(*pinned), QString::fromStdString(formatSeconds(a.makespan_s)),
                              QString::fromStdString(formatSeconds(b.makespan_s)), dt < 0 ? "−" : "+",
                              QString::fromStdString(formatSeconds(std::abs(dt))))
                         .arg(b.makespan_s > 0 ? a.makespan_s / b.makespan_s : 1.0, 0, 'f', 3)
                         .arg(QString::fromStdString(formatBytes(double(a.peak_bytes[0]))),
                              QString::fromStdString(formatBytes(double(b.peak_bytes[0]))), dm < 0 ? "−" : "+",
                              QString::fromStdString(formatBytes(std::abs(dm))))
                         .arg(a.forward_steps)
                         .arg(b.forward_steps)
                         .arg(a.forward_steps - b.forward_steps));
}

ExportDialog::MakeCharts SideBySidePage::chartCopies() const {
    return [this] {
        const_cast<SideBySidePage*>(this)->ensureCurrent(); // drawn for the shown and the pinned plan
        std::vector<std::unique_ptr<QWidget>> out;
        out.push_back(timelineCopy(m_shown));
        out.push_back(timelineCopy(m_pinned));
        return out;
    };
}
