#include "recoverydialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

RecoveryDialog::RecoveryDialog(const QList<AutosaveEntry>& entries, QWidget* parent)
    : QDialog(parent), m_entries(entries), m_list(new QTreeWidget(this)) {
    setWindowTitle(tr("Recover unsaved work"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("A session ended without saving these changes. Recover opens the selected one in "
                                "this window (its original file is not touched until you save); Discard deletes the "
                                "selected autosaves; Later keeps them all and asks again at the next start."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_list->setColumnCount(3);
    m_list->setHeaderLabels({tr("Document"), tr("Autosaved"), tr("Autosave file")});
    m_list->setRootIsDecorated(false);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    for (int i = 0; i < entries.size(); ++i) {
        const AutosaveEntry& e = entries[i];
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(0, e.name());
        item->setText(1, QLocale().toString(e.savedAt.toLocalTime(), QLocale::ShortFormat));
        item->setText(2, QFileInfo(e.file).fileName());
        item->setToolTip(2, e.file);
        item->setData(0, Qt::UserRole, i);
    }
    for (int c = 0; c < 3; ++c)
        m_list->resizeColumnToContents(c);
    if (m_list->topLevelItemCount() > 0) m_list->topLevelItem(0)->setSelected(true);
    layout->addWidget(m_list);

    auto* buttons = new QDialogButtonBox(this);
    m_recover = buttons->addButton(tr("&Recover"), QDialogButtonBox::AcceptRole);
    m_discard = buttons->addButton(tr("&Discard"), QDialogButtonBox::DestructiveRole);
    m_later = buttons->addButton(tr("&Later"), QDialogButtonBox::RejectRole);
    m_recover->setDefault(true);
    layout->addWidget(buttons);
    connect(m_recover, &QPushButton::clicked, this, [this] {
        m_choice = Recover;
        accept();
    });
    connect(m_discard, &QPushButton::clicked, this, [this] {
        m_choice = Discard;
        accept();
    });
    connect(m_later, &QPushButton::clicked, this, [this] {
        m_choice = Later;
        reject();
    });
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &RecoveryDialog::updateButtons);
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, [this] { m_recover->click(); });
    updateButtons();
    resize(760, 320);
}

QList<AutosaveEntry> RecoveryDialog::selected() const {
    QList<AutosaveEntry> out;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        if (m_list->topLevelItem(i)->isSelected())
            out.append(m_entries[m_list->topLevelItem(i)->data(0, Qt::UserRole).toInt()]);
    return out;
}

QPushButton* RecoveryDialog::button(Choice c) const {
    return c == Recover ? m_recover : c == Discard ? m_discard : m_later;
}

void RecoveryDialog::updateButtons() {
    const auto n = selected().size();
    m_recover->setEnabled(n == 1); // one window holds one document
    m_discard->setEnabled(n > 0);
}
