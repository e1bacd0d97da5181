#include "userguide.h"

#include "about.h"
#include "examplefiles.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QImage>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>
#include <QWhatsThis>
#include <algorithm>

UserGuide::UserGuide(QWidget* parent) : QDialog(parent), m_browser(new QTextBrowser(this)) {
    setWindowTitle(tr("Checkpoint Explorer: User guide"));
    setObjectName("userGuide");
    resize(900, 700);
    m_browser->setOpenExternalLinks(true); // http(s) in the web browser; the guide's own .md links stay here
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* back = buttons->addButton(tr("&Back"), QDialogButtonBox::ActionRole);
    QPushButton* contents = buttons->addButton(tr("C&ontents"), QDialogButtonBox::ActionRole);
    back->setToolTip(tr("The page before (Alt+Left)"));
    contents->setToolTip(tr("The guide's contents page"));
    back->setEnabled(false);
    connect(m_browser, &QTextBrowser::backwardAvailable, back, &QWidget::setEnabled);
    connect(back, &QPushButton::clicked, m_browser, &QTextBrowser::backward);
    connect(contents, &QPushButton::clicked, this, &UserGuide::home);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_browser, &QTextBrowser::sourceChanged, this, &UserGuide::fitImages);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser, 1);
    layout->addWidget(buttons);
    home();
}

QString UserGuide::indexPath() {
    const QString root = resourceRoot();
    const QString index = root + "/docs/index.md";
    return !root.isEmpty() && QFileInfo::exists(index) ? index : QString();
}

void UserGuide::home() {
    const QString index = indexPath();
    if (index.isEmpty())
        return m_browser->setHtml(
            tr("<p>The user guide was not found: it is installed with the program under PREFIX/share/ckpt/docs "
               "(or read from docs/ in the source tree when the program runs from its build folder). "
               "CKPT_DATA_DIR can name a folder that holds docs/.</p>"));
    m_browser->setSource(QUrl::fromLocalFile(index), QTextDocument::MarkdownResource);
}

void UserGuide::resizeEvent(QResizeEvent* event) {
    QDialog::resizeEvent(event);
    fitImages();
}

QSize UserGuide::naturalSize(const QString& name) {
    // Resolved against the page shown: two pages may name different pictures alike.
    const QUrl url = m_browser->source().resolved(QUrl(name));
    auto it = m_sizes.find(url);
    if (it == m_sizes.end()) {
        const QVariant data = m_browser->loadResource(QTextDocument::ImageResource, url);
        const QImage picture = data.canConvert<QImage>() ? data.value<QImage>() : QImage::fromData(data.toByteArray());
        it = m_sizes.insert(url, picture.size());
    }
    return *it;
}

void UserGuide::fitImages() {
    QTextDocument* doc = m_browser->document();
    const qreal room = m_browser->viewport()->width() - 2 * doc->documentMargin() - 4;
    if (room < 50) return;
    QTextCursor cursor(doc);
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (!f.charFormat().isImageFormat()) continue;
            QTextImageFormat image = f.charFormat().toImageFormat();
            const QSize natural = naturalSize(image.name());
            if (natural.isEmpty()) continue;
            const qreal width = std::min<qreal>(natural.width(), room);
            if (qAbs(image.width() - width) < 1) continue;
            image.setWidth(width);
            image.setHeight(natural.height() * width / natural.width());
            cursor.setPosition(f.position());
            cursor.setPosition(f.position() + f.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(image);
        }
}

void buildHelpMenu(QMenuBar* bar, QWidget* window) {
    QMenu* help = bar->addMenu(QObject::tr("&Help"));
    QAction* guide =
        help->addAction(QObject::tr("&User guide"), QKeySequence(QKeySequence::HelpContents), window, [window] {
            auto* g = window->findChild<UserGuide*>("userGuide");
            if (!g) g = new UserGuide(window);
            g->show();
            g->raise();
            g->activateWindow();
        });
    guide->setToolTip(QObject::tr("The explorer, the command line, the file formats and the schedulers (F1)"));
    window->addAction(guide); // F1 works with the menu bar hidden too (presentation mode)
    help->addAction(QObject::tr("&Keyboard shortcuts"), window, [window] {
        QString rows;
        for (const QString& line : shortcutLines(window))
            rows += "<tr><td>" + line.section('\t', 0, 0).toHtmlEscaped() + "</td><td>&nbsp;&nbsp;<b>" +
                    line.section('\t', 1).toHtmlEscaped() + "</b></td></tr>";
        QMessageBox::information(window, QObject::tr("Keyboard shortcuts"), "<table>" + rows + "</table>");
    });
    QAction* whatsThis = QWhatsThis::createAction(window);
    whatsThis->setToolTip(QObject::tr("Click a panel or tab afterwards to read what it shows and how to use it "
                                      "(Shift+F1)"));
    help->addAction(whatsThis);
    help->addSeparator();
    help->addAction(QObject::tr("&About"), window,
                    [window] { QMessageBox::about(window, QObject::tr("About Checkpoint Explorer"), aboutText()); });
}
