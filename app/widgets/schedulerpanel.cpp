#include "schedulerpanel.h"

#include "models/document.h"
#include "run/scheduler_lookup.h"
#include "util/budget_list.h"
#include "util/units.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <utility>

using namespace ckpt;

namespace {
constexpr int kSliderSteps = 1000; // the right end means "no budget"

// A real parameter as typed: "60" and "0.25", not "60.000000" (six decimals are kept for values that need them).
class RealSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override {
        QString text = locale().toString(value, 'f', decimals());
        const QString point = locale().decimalPoint();
        if (text.contains(point)) {
            while (text.endsWith('0'))
                text.chop(1);
            if (text.endsWith(point)) text.chop(point.size());
        }
        return text;
    }
};

// An integer parameter that says so when a number outside its range is typed ("-3" slots), where QSpinBox dropped
// the minus sign and kept 3. The text goes back to the value, and `rejected` says what was refused.
class IntSpinBox : public QSpinBox {
public:
    using QSpinBox::QSpinBox;
    mutable QString rejected;
    QValidator::State validate(QString& text, int& pos) const override {
        const QValidator::State state = QSpinBox::validate(text, pos);
        if (state != QValidator::Invalid) return state;
        bool number = false;
        text.trimmed().toLongLong(&number);
        return number || text.trimmed() == "-" ? QValidator::Intermediate : state;
    }
    void fixup(QString& input) const override {
        bool number = false;
        const long long v = input.trimmed().toLongLong(&number);
        if (number && (v < minimum() || v > maximum())) rejected = input.trimmed();
        QSpinBox::fixup(input);
    }
};
} // namespace

namespace {
QString budgetsTip() {
    return QObject::tr("Comma-separated sizes or percentages of store-all's peak, e.g. none,5%,20%,1GiB");
}
} // namespace

SchedulerPanel::SchedulerPanel(Document* doc, QWidget* parent) : QWidget(parent), m_doc(doc) {
    auto* layout = new QVBoxLayout(this);
    m_list = new QListWidget(this);
    m_list->setToolTip(tr("Click a scheduler to show its plan; tick the ones 'Run all' compares"));
    m_list->setMaximumHeight(220);
    layout->addWidget(new QLabel(tr("Schedulers"), this));
    layout->addWidget(m_list);
    auto* budgetBox = new QGroupBox(tr("Budget of level 0"), this);
    auto* bl = new QVBoxLayout(budgetBox);
    m_slider = new QSlider(Qt::Horizontal, budgetBox);
    m_slider->setRange(0, kSliderSteps);
    m_slider->setValue(kSliderSteps);
    m_slider->setToolTip(
        tr("Drag to re-solve the current scheduler under a memory budget; the right end is no budget"));
    m_budgetLabel = new QLabel(budgetBox);
    m_budgetLabel->setWordWrap(true);
    bl->addWidget(m_slider);
    bl->addWidget(m_budgetLabel);
    layout->addWidget(budgetBox);
    auto* sweepBox = new QGroupBox(tr("Budgets compared by 'Run all'"), this);
    auto* sl = new QVBoxLayout(sweepBox);
    m_budgets = new QLineEdit(sweepBox);
    m_budgets->setToolTip(budgetsTip());
    sl->addWidget(m_budgets);
    layout->addWidget(sweepBox);
    // The parameters last: their rows change with the scheduler, and above the slider they moved it under the
    // pointer (a drag landed in bptt-dp's alpha field).
    m_box = new QGroupBox(this);
    m_form = new QFormLayout(m_box);
    layout->addWidget(m_box);
    layout->addStretch(1);

    // The widgets edit the document through undoable commands; what the document then holds comes back through
    // sync(), which is also how an undo puts the widgets back.
    connect(m_list, &QListWidget::currentRowChanged, this, [this] {
        if (m_syncing) return;
        ProjectSettings s = m_doc->settings();
        s.scheduler = currentScheduler();
        m_doc->editSettings(s, tr("Use %1").arg(QString::fromStdString(s.scheduler)));
    });
    connect(m_list, &QListWidget::itemChanged, this, [this] {
        if (m_syncing) return;
        std::vector<std::string> on = checkedSchedulers();
        ProjectSettings s = m_doc->settings();
        s.schedulers = int(on.size()) == m_list->count() ? std::vector<std::string>{} : on;
        m_doc->editSettings(s, tr("Tick the schedulers to compare"));
    });
    connect(m_slider, &QSlider::sliderPressed, this, [this] { ++m_gesture; });
    connect(m_slider, &QSlider::valueChanged, this, [this] {
        updateBudgetLabel();
        if (!m_syncing) editBudget();
    });
    // Checked as it is typed (percentages against a stand-in peak; Run all checks them against the problem's).
    connect(m_budgets, &QLineEdit::textChanged, this, [this](const QString& text) {
        auto parsed = checkBudgets(text.toStdString());
        m_budgets->setStyleSheet(parsed ? QString() : QStringLiteral("color: #b00"));
        m_budgets->setToolTip(parsed ? budgetsTip() : QString::fromStdString(parsed.error()) + "\n" + budgetsTip());
        m_budgetsError = parsed ? QString() : QString::fromStdString(parsed.error());
    });
    connect(m_budgets, &QLineEdit::editingFinished, this, [this] {
        if (!m_budgetsError.isEmpty()) return; // kept out of the project until it reads
        ProjectSettings s = m_doc->settings();
        s.budgets = m_budgets->text().toStdString();
        m_doc->editSettings(s, tr("Compare the budgets %1").arg(m_budgets->text()));
    });
    connect(m_doc, &Document::settingsChanged, this, &SchedulerPanel::sync);
    reload();
}

void SchedulerPanel::fillList() {
    const Problem& problem = m_doc->problem();
    std::vector<std::string> names = schedulerNames(problem);
    if (names == m_listed) return;
    m_listed = std::move(names);
    m_list->blockSignals(true);
    m_list->clear();
    for (const std::string& name : m_listed) {
        const SchedulerChoice s = *findSchedulerFor(name, problem);
        std::string tip = s.description() + "\n" + s.paper() + "\n";
        if (s.graph)
            tip += "graph scheduler, " + std::string(optimalityName(s.optimality()));
        else
            tip += "model " + std::string(1, s.chain->model) + ", " + optimalityName(s.optimality()) +
                   (problem.isGraph() ? "\nchain scheduler, run on the chain this graph is" : "");
        auto* item = new QListWidgetItem(QString::fromStdString(name), m_list);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
        item->setToolTip(QString::fromStdString(tip));
    }
    m_list->blockSignals(false);
}

std::vector<std::string> SchedulerPanel::listedSchedulers() const {
    std::vector<std::string> out;
    for (int i = 0; i < m_list->count(); ++i)
        out.push_back(m_list->item(i)->text().toStdString());
    return out;
}

std::vector<std::string> SchedulerPanel::checkedSchedulers() const {
    std::vector<std::string> out;
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked) out.push_back(m_list->item(i)->text().toStdString());
    return out;
}

void SchedulerPanel::reload() {
    fillList();
    m_formScheduler.clear(); // another problem may give the same name other parameters
    sync();
}

namespace {
std::map<std::string, std::string> paramsOf(const ProjectSettings& s, const std::string& scheduler) {
    auto it = s.params.find(scheduler);
    return it == s.params.end() ? std::map<std::string, std::string>{} : it->second;
}
} // namespace

void SchedulerPanel::sync() {
    ProjectSettings s = m_doc->settings();
    m_syncing = true;
    bool ticksChanged = false;
    for (int i = 0; i < m_list->count(); ++i) {
        const std::string name = m_list->item(i)->text().toStdString();
        bool on =
            s.schedulers.empty() || std::find(s.schedulers.begin(), s.schedulers.end(), name) != s.schedulers.end();
        const auto state = on ? Qt::Checked : Qt::Unchecked;
        if (m_list->item(i)->checkState() != state) m_list->item(i)->setCheckState(state), ticksChanged = true;
    }
    if (m_budgets->text() != QString::fromStdString(s.budgets)) m_budgets->setText(QString::fromStdString(s.budgets));
    setCurrentScheduler(s.scheduler);
    // A problem without that scheduler (a graph edit made the graph stop being a chain) shows another one; the
    // document follows, as it can hold no scheduler the problem lacks.
    if (currentScheduler() != s.scheduler && m_list->count())
        m_doc->settings().scheduler = s.scheduler = currentScheduler();
    const std::string name = currentScheduler();
    // The form is rebuilt only when it shows other values (an undo), not under the user's typing.
    if (name != m_formScheduler || paramsOf(s, name) != m_formValues) buildForm();
    const int slider = m_slider->value();
    placeSlider(s.budget_bytes);
    m_syncing = false;
    const bool current = name != m_synced.scheduler || paramsOf(s, name) != paramsOf(m_synced, name);
    const bool budget = slider != m_slider->value() || s.budget_bytes != m_synced.budget_bytes;
    m_synced = s;
    if (current) emit currentChanged();
    if (budget) emit budgetChanged();
    if (ticksChanged) emit selectionChanged();
}

std::string SchedulerPanel::currentScheduler() const {
    auto* item = m_list->currentItem();
    return item ? item->text().toStdString() : std::string("revolve");
}

void SchedulerPanel::setCurrentScheduler(const std::string& name) {
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->text().toStdString() == name) {
            m_list->setCurrentRow(i);
            return;
        }
    if (m_list->count()) m_list->setCurrentRow(0);
}

std::map<std::string, std::string> SchedulerPanel::currentParams() const {
    auto it = m_doc->settings().params.find(currentScheduler());
    return it == m_doc->settings().params.end() ? std::map<std::string, std::string>{} : it->second;
}

void SchedulerPanel::buildForm() {
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_paramMessage.clear();
    m_paramNote = nullptr;
    const std::string name = currentScheduler();
    const auto choice = findSchedulerFor(name, m_doc->problem());
    if (!choice) return;
    const std::vector<ParamSpec>& specs = choice->params();
    m_paramNote = new QLabel(m_box); // what was refused, under the parameters
    m_paramNote->setWordWrap(true);
    m_paramNote->setStyleSheet("color: #b00");
    m_paramNote->setVisible(false);
    m_box->setTitle(tr("Parameters of %1").arg(QString::fromStdString(name)));
    m_formScheduler = name;
    m_formValues = paramsOf(m_doc->settings(), name);
    const auto values = m_formValues;
    if (specs.empty()) m_form->addRow(new QLabel(tr("(none)"), m_box));
    for (const ParamSpec& p : specs) {
        const std::string current = values.count(p.name) ? values.at(p.name) : p.default_value;
        QWidget* w = paramEditor(p, current, name);
        w->setToolTip(QString::fromStdString(p.description));
        // Never wider than the panel wants: a spin box over a huge range or a long value would widen the window.
        w->setMinimumWidth(60);
        m_form->addRow(QString::fromStdString(p.name), w);
    }
    m_form->addRow(m_paramNote);
}

QWidget* SchedulerPanel::paramEditor(const ParamSpec& p, const std::string& current, const std::string& scheduler) {
    switch (p.type) {
    case ParamType::Int:
        return intParamEditor(p, current, scheduler);
    case ParamType::Real: {
        auto* spin = new RealSpinBox(m_box);
        spin->setDecimals(6);
        spin->setRange(std::max(p.min, -1e15), std::min(p.max, 1e15));
        spin->setValue(std::atof(current.c_str()));
        connect(spin, &QDoubleSpinBox::valueChanged, this, [=, this](double v) {
            storeParam(scheduler, p.name, QString::number(v, 'g', 12).toStdString(), p.default_value);
        });
        return spin;
    }
    case ParamType::Bytes: {
        auto* edit = new QLineEdit(QString::fromStdString(current), m_box);
        connect(edit, &QLineEdit::editingFinished, this, [=, this] {
            auto b = parseBytes(edit->text().toStdString());
            if (!b) {
                edit->setStyleSheet("color: #b00");
                edit->setToolTip(QString::fromStdString(b.error()));
                return;
            }
            edit->setStyleSheet({});
            storeParam(scheduler, p.name, std::to_string(*b), p.default_value);
        });
        return edit;
    }
    case ParamType::Text: {
        auto* edit = new QLineEdit(QString::fromStdString(current), m_box);
        connect(edit, &QLineEdit::editingFinished, this,
                [=, this] { storeParam(scheduler, p.name, edit->text().toStdString(), p.default_value); });
        return edit;
    }
    case ParamType::Choice: {
        auto* combo = new QComboBox(m_box);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(8);
        for (const auto& c : p.choices)
            combo->addItem(QString::fromStdString(c));
        combo->setCurrentText(QString::fromStdString(current));
        connect(combo, &QComboBox::currentTextChanged, this,
                [=, this](const QString& t) { storeParam(scheduler, p.name, t.toStdString(), p.default_value); });
        return combo;
    }
    }
    return nullptr;
}

QWidget* SchedulerPanel::intParamEditor(const ParamSpec& p, const std::string& current, const std::string& scheduler) {
    auto* spin = new IntSpinBox(m_box);
    spin->setRange(int(std::max(p.min, -2e9)), int(std::min(p.max, 2e9)));
    spin->setValue(std::atoi(current.c_str()));
    if (p.default_value == "0") spin->setSpecialValueText(tr("auto"));
    connect(spin, &QSpinBox::valueChanged, this,
            [=, this](int v) { storeParam(scheduler, p.name, std::to_string(v), p.default_value); });
    connect(spin, &QSpinBox::editingFinished, this, [=, this] {
        if (spin->rejected.isEmpty()) return;
        m_paramMessage = tr("%1: %2 is not between %3 and %4; it stays %5")
                             .arg(QString::fromStdString(p.name), spin->rejected)
                             .arg(spin->minimum())
                             .arg(spin->maximum())
                             .arg(spin->value());
        spin->rejected.clear();
        m_paramNote->setText(m_paramMessage);
        m_paramNote->setVisible(true);
    });
    return spin;
}

void SchedulerPanel::storeParam(const std::string& scheduler, const std::string& key, const std::string& value,
                                const std::string& def) {
    ProjectSettings s = m_doc->settings();
    auto& v = s.params[scheduler];
    if (value == def)
        v.erase(key);
    else
        v[key] = value;
    if (v.empty()) s.params.erase(scheduler);
    m_formValues = paramsOf(s, scheduler); // what the widgets show now: sync() keeps them
    // Typing "12" sets 1, then 12: one step per parameter while nothing else is edited.
    m_doc->editSettings(
        s,
        tr("Set %1 of %2 to %3")
            .arg(QString::fromStdString(key), QString::fromStdString(scheduler), QString::fromStdString(value)),
        QString::fromStdString("param " + scheduler + " " + key));
}

void SchedulerPanel::setBudgetRange(std::int64_t lowest, std::int64_t highest) {
    m_low = std::max<std::int64_t>(1, lowest);
    m_high = std::max(m_low + 1, highest);
    // The same budget on the new scale: moving the slider here is no edit.
    const bool was = std::exchange(m_syncing, true);
    placeSlider(m_doc->settings().budget_bytes);
    m_syncing = was;
    updateBudgetLabel();
}

std::int64_t SchedulerPanel::budgetBytes() const {
    if (m_exact > 0 && m_slider->value() == m_exactAt) return m_exact;
    if (m_slider->value() >= kSliderSteps || m_high <= m_low) return 0;
    return budgetAt(m_slider->value());
}

std::int64_t SchedulerPanel::budgetAt(int position) const {
    // Logarithmic: small budgets get as much room as large ones.
    double f = double(position) / kSliderSteps;
    return std::int64_t(std::exp(std::log(double(m_low)) + f * (std::log(double(m_high)) - std::log(double(m_low)))));
}

std::vector<std::int64_t> SchedulerPanel::sliderBudgets() const {
    std::vector<std::int64_t> out;
    if (m_high <= m_low) return out;
    for (int v = 0; v < kSliderSteps; ++v)
        out.push_back(budgetAt(v));
    return out;
}

void SchedulerPanel::setBudgetBytes(std::int64_t bytes) {
    const std::int64_t before = budgetBytes();
    const int at = m_slider->value();
    placeSlider(bytes); // a moved slider makes the edit itself
    updateBudgetLabel();
    // The same slider step but another exact budget (a shown run's) is an edit too.
    if (!m_syncing && m_slider->value() == at && budgetBytes() != before) editBudget();
}

void SchedulerPanel::editBudget() {
    ProjectSettings s = m_doc->settings();
    s.budget_bytes = budgetBytes();
    if (s.budget_bytes == m_doc->settings().budget_bytes) return;
    const QString what =
        s.budget_bytes ? tr("Set the budget to %1").arg(QString::fromStdString(formatBytes(double(s.budget_bytes))))
                       : tr("Remove the budget");
    m_doc->editSettings(s, what, QStringLiteral("budget %1").arg(m_gesture));
}

void SchedulerPanel::placeSlider(std::int64_t bytes) {
    int v = kSliderSteps;
    if (bytes > 0 && m_high > m_low) {
        double f = (std::log(double(std::clamp(bytes, m_low, m_high))) - std::log(double(m_low))) /
                   (std::log(double(m_high)) - std::log(double(m_low)));
        v = std::clamp(int(std::lround(f * kSliderSteps)), 0, kSliderSteps - 1);
    }
    // Exactly these bytes (as the slider shows them) until the slider moves: its steps are coarser.
    m_exact = bytes <= 0 ? 0 : m_high > m_low ? std::clamp(bytes, m_low, m_high) : bytes;
    m_exactAt = v;
    m_slider->setValue(v);
}

void SchedulerPanel::updateBudgetLabel() {
    std::int64_t b = budgetBytes();
    if (b == 0)
        m_budgetLabel->setText(tr("no budget (the machine's capacity)"));
    else
        m_budgetLabel->setText(tr("%1 (%2 % of store-all's peak)")
                                   .arg(QString::fromStdString(formatBytes(double(b))))
                                   .arg(100.0 * double(b) / double(m_high), 0, 'f', 1));
}
