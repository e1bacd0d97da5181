#pragma once
// Offered at start while autosaves of unsaved work exist: each with its document and time; Recover opens the
// selected one in the window, Discard deletes the selected ones, Later keeps them all for the next start.
#include "models/autosave.h"

#include <QDialog>

class QTreeWidget;
class QPushButton;

class RecoveryDialog : public QDialog {
    Q_OBJECT
public:
    enum Choice { Later, Recover, Discard };
    explicit RecoveryDialog(const QList<AutosaveEntry>& entries, QWidget* parent = nullptr);

    Choice choice() const { return m_choice; }
    QList<AutosaveEntry> selected() const;
    QTreeWidget* list() const { return m_list; }
    QPushButton* button(Choice c) const;

private:
    void updateButtons();

    QList<AutosaveEntry> m_entries;
    QTreeWidget* m_list;
    QPushButton* m_recover;
    QPushButton* m_discard;
    QPushButton* m_later;
    Choice m_choice = Later;
};
