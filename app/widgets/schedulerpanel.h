#pragma once
// The schedulers of the registry as a checkable list (which ones "Run all" compares), the parameters of the
// current one as widgets generated from its ParamSpec list, and the budget slider. For a graph the list holds the
// graph schedulers (graph_registry.h), and the chain schedulers too when the graph is a chain.
#include "io/project_io.h"

#include <QWidget>
#include <map>
#include <string>
#include <vector>

namespace ckpt {
struct ParamSpec;
}
class Document;
class QListWidget;
class QFormLayout;
class QSlider;
class QLabel;
class QLineEdit;
class QGroupBox;

class SchedulerPanel : public QWidget {
    Q_OBJECT
public:
    SchedulerPanel(Document* doc, QWidget* parent = nullptr);

    std::string currentScheduler() const;
    void setCurrentScheduler(const std::string& name);
    std::map<std::string, std::string> currentParams() const;       // the non-default values of the current scheduler
    std::int64_t budgetBytes() const;                               // 0 = no budget
    void setBudgetRange(std::int64_t lowest, std::int64_t highest); // the slider spans these
    // As the user would (one undoable edit), and exactly these bytes until the slider moves (a shown run's budget).
    void setBudgetBytes(std::int64_t bytes);
    QSlider* budgetSlider() const { return m_slider; }
    std::vector<std::int64_t> sliderBudgets() const; // the budget at each of the slider's positions but "no budget"
    void reload(); // after the document was replaced (or turned from a chain into a graph)
    // Every widget shows the document's settings again (after an edit, an undo or a redo); the signals say what
    // changed.
    std::vector<std::string> listedSchedulers() const;  // every name in the list
    std::vector<std::string> checkedSchedulers() const; // the ticked ones

    // Why the budgets field's text does not read as a budget list (shown in red, with the reason as its tooltip, and
    // kept out of the project until it does), or empty.
    QString budgetsError() const { return m_budgetsError; }
    QString paramMessage() const { return m_paramMessage; } // a parameter typed out of its range, or empty
    QLineEdit* budgetsField() const { return m_budgets; }

signals:
    void currentChanged();   // another scheduler or a parameter changed
    void budgetChanged();    // the slider moved
    void selectionChanged(); // the checked set changed

private:
    void sync();
    void placeSlider(std::int64_t bytes); // no edit while m_syncing
    std::int64_t budgetAt(int position) const;
    void editBudget(); // the slider's budget into the document, one undo step per drag
    void buildForm();
    // The widget that edits one parameter of `scheduler`, showing `current`; its edits go through storeParam.
    QWidget* paramEditor(const ckpt::ParamSpec& p, const std::string& current, const std::string& scheduler);
    QWidget* intParamEditor(const ckpt::ParamSpec& p, const std::string& current, const std::string& scheduler);
    // One undoable edit of a parameter (the default value removes it from the project).
    void storeParam(const std::string& scheduler, const std::string& key, const std::string& value,
                    const std::string& def);
    void fillList();
    void updateBudgetLabel();
    Document* m_doc;
    QListWidget* m_list;
    QGroupBox* m_box;
    QFormLayout* m_form;
    QSlider* m_slider;
    QLabel* m_budgetLabel;
    QLineEdit* m_budgets;
    QString m_budgetsError;
    QString m_paramMessage;        // what the last out-of-range parameter typed was, or empty
    QLabel* m_paramNote = nullptr; // shows it under the parameters // why the budgets typed do not read (kept out of
                                   // the project), or empty
    std::int64_t m_low = 0, m_high = 0;
    std::int64_t m_exact = 0; // the budget set, while the slider stays at m_exactAt (its steps are coarser)
    int m_exactAt = -1;
    std::vector<std::string> m_listed; // the names listed (the list is rebuilt when the problem's names change)
    bool m_syncing = false;            // the widgets are being set from the document: no edits
    int m_gesture = 0;                 // one undo step per slider drag
    ckpt::ProjectSettings m_synced;    // what the widgets showed after the last sync
    std::string m_formScheduler;       // the scheduler the parameter form is for, with the values it shows
    std::map<std::string, std::string> m_formValues;
};
