#pragma once
// Time overhead (makespan ÷ store-all's) against peak memory in level 0, one series per scheduler over a budget
// sweep. A click on a point says which run it is. A scheduler's best trade-offs are joined, the others faint; a
// result proven optimal is a filled marker, any other (a heuristic, a solver stopped by a limit) a hollow one, with
// a footnote. On linear axes a point far above the rest is clipped to an arrow at the top with its value, so that
// one poor result does not squash every curve; logarithmic axes show everything.
#include "run/runner.h"

#include <QList>
#include <QWidget>
#include <limits>
#include <memory>
#include <vector>

class QCustomPlot;
class QCPTextElement;
class QCPAbstractItem;
class QCPGraph;
class QCheckBox;
class ChartHint;

class TradeoffView : public QWidget {
    Q_OBJECT
public:
    explicit TradeoffView(QWidget* parent = nullptr);
    ~TradeoffView() override;
    void setRuns(std::vector<std::shared_ptr<const ckpt::Run>> runs);
    const std::vector<std::shared_ptr<const ckpt::Run>>& runs() const { return m_runs; }
    QCustomPlot* plot() const { return m_plot; }
    int seriesCount() const;    // schedulers drawn (their best trade-offs joined by a line)
    int dominatedCount() const; // points drawn faint: another run of the same scheduler is as good or better
    // Runs made before the problem or machine changed: drawn grey (the window says why).
    void setStale(bool stale);
    bool isStale() const { return m_stale; }
    QString emptyHint() const; // the line shown instead of the chart before any run, else empty
    void setLogAxes(bool memory, bool time);
    bool logMemory() const { return m_logX; }
    bool logTime() const { return m_logY; }
    int hollowCount() const;  // points drawn hollow: not proven optimal
    int clippedCount() const; // points above the time axis, drawn as an arrow with their value
    QString footnote() const; // the line under the chart (empty: none)
    // Whether the footnote explains hollow markers (a figure of several panels says it once, under them all).
    void setHollowNote(bool on);
    static QString hollowNote();
    static QString briefHollowNote(); // for a narrow page

signals:
    void runClicked(int indexInRuns);

protected:
    void changeEvent(QEvent* e) override;       // a new palette (a dark style): new chart colours
    void resizeEvent(QResizeEvent* e) override; // the footnote wrapped to the new width

private:
    static bool samePoints(const QCPGraph* a, const QCPGraph* b); // the same points, to rounding
    static double keptTop(std::vector<double> ys);                // the highest overhead the linear axis shows
    void setFootnote(const QString& text, const QString& brief);
    void fitFootnote(); // wrapped to the chart's width, in its brief form when the whole takes more than two lines
    struct Drawn {
        double x, y;
        QColor colour;
    };
    struct Extent { // of the points drawn
        double xmin = std::numeric_limits<double>::infinity(), xmax = 0;
        std::vector<double> ys;
        std::vector<Drawn> drawn;
    };
    std::vector<bool> hollowOf(const std::vector<int>& runs) const;
    void addSeries(const std::string& name, std::vector<int> ids, Extent& extent);
    void setAxes(double xmin, double xmax, double top);
    void updateFootnote();
    void addClipMark(double x, double y, const QColor& colour);

    QCustomPlot* m_plot;
    std::unique_ptr<ChartHint> m_hint;
    std::vector<std::shared_ptr<const ckpt::Run>> m_runs;
    int m_series = 0;
    std::vector<std::vector<int>> m_pointRun; // per graph, the run index of each point (in key order)
    bool m_stale = false;
    bool m_logX = false, m_logY = false;
    bool m_hollowNote = true;
    int m_clipped = 0;
    QCPTextElement* m_footnote = nullptr;
    QString m_footnoteText, m_footnoteBrief;
    QList<QCPAbstractItem*> m_marks; // the clipped points' arrows and values
    QCheckBox* m_logMemoryBox;
    QCheckBox* m_logTimeBox;
};
