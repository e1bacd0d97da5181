#include "summaryline.h"

#include "models/runcontroller.h"
#include "run/runner.h"
#include "util/units.h"

#include <QEvent>
#include <cmath>

using namespace ckpt;

namespace {

// A parameter as the summary line shows it: a number to 4 significant digits, a text cut to 28 characters (the whole
// of them is in the line's tooltip): checkmate's reasons and bounds made the line wrap and push the tabs down.
std::string shortParam(const std::string& value) {
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (!value.empty() && end == value.c_str() + value.size() && value.size() > 6 && std::isfinite(number))
        return formatNumber(number, 4);
    const QString text = QString::fromStdString(value);
    return text.size() > 28 ? (text.left(27) + QChar(0x2026)).toStdString() : value;
}

// The summary line: what the shown plan is, its budget, and what it costs.
QString runSummary(const Run& run, std::int64_t storeAllPeak) {
    const Totals& t = run.timeline->totals;
    std::map<std::string, std::string> shown;
    for (const auto& [key, value] : run.params)
        shown[key] = shortParam(value);
    const QString params = QString::fromStdString(formatParams(shown, "\u00a0 ")).toHtmlEscaped();
    // One unit family for the line: the budget's ("885.13 KB" stood beside "403.38 KiB").
    const ByteUnits units = run.budget_bytes > 0 ? unitsOf(double(run.budget_bytes)) : ByteUnits::Binary;
    QString peaks;
    for (std::size_t l = 0; l < t.peak_bytes.size(); ++l)
        peaks +=
            QObject::tr("  L%1 %2").arg(l).arg(QString::fromStdString(formatBytes(double(t.peak_bytes[l]), units)));
    const QString budget =
        run.budget_bytes <= 0
            ? QObject::tr("no budget")
            : QObject::tr("budget %1 (%2 % of store-all's peak)")
                  .arg(QString::fromStdString(formatBytes(double(run.budget_bytes), units)))
                  .arg(storeAllPeak > 0 ? 100.0 * double(run.budget_bytes) / double(storeAllPeak) : 0.0, 0, 'f', 1);
    // The costs first, the parameters after them: in two lines the makespan is always seen.
    return QObject::tr("<b>%1</b> · %2 · makespan <b>%3</b> (%4× store-all) · %5 forward steps (%6 recomputed) · "
                       "peak%7 · %8 actions%9")
        .arg(QString::fromStdString(run.scheduler), budget, QString::fromStdString(formatSeconds(t.makespan_s)))
        .arg(t.makespan_s / run.baseline_makespan_s, 0, 'f', 3)
        .arg(t.forward_steps)
        .arg(t.recomputed_steps)
        .arg(peaks)
        .arg(run.plan ? run.plan->actionCount() : 0)
        .arg(params.isEmpty() ? QString() : " · " + params.trimmed());
}

} // namespace

SummaryLine::SummaryLine(RunController* runs, QWidget* parent) : QLabel(parent), m_runs(runs) {
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A scheduler's parameters can make a long line (checkmate's widened the window past the screen): it wraps.
    setWordWrap(true);
    setMinimumWidth(200);
    fitHeight();
}

void SummaryLine::fitHeight() {
    setFixedHeight(2 * fontMetrics().lineSpacing() + 2);
}

void SummaryLine::changeEvent(QEvent* e) {
    QLabel::changeEvent(e);
    if (e->type() == QEvent::FontChange) fitHeight();
}

void SummaryLine::refresh() {
    const auto run = m_runs->shownRun();
    QString text;
    if (run && run->timeline)
        text = runSummary(*run, m_runs->budgetRange().ceiling);
    else if (run)
        text = tr("<b>%1</b>: %2")
                   .arg(QString::fromStdString(run->scheduler), QString::fromStdString(run->message).toHtmlEscaped());
    const QString solving = tr("solving %1…").arg(m_runs->solvingWhat());
    if (m_runs->shownIsStale()) {
        // The old plan stays up while its successor is solved, marked so that no one reads it as current.
        const QString state = m_runs->isSolving() ? solving : tr("Run current (F5) to solve it");
        text =
            tr("<span style=\"color:#b35900\"><b>Out of date</b> (%1): %2</span> · <span style=\"color:gray\">shown: "
               "%3</span>")
                .arg(m_runs->shownStaleReason(), state, text);
    } else if (!run && m_runs->isSolving()) {
        text = solving.left(1).toUpper() + solving.mid(1);
    }
    setText(text);
    setToolTip(run && !run->params.empty() ? tr("Parameters of %1:\n%2")
                                                 .arg(QString::fromStdString(run->scheduler),
                                                      QString::fromStdString(formatParams(run->params, "\n")))
                                           : QString());
}
