#pragma once
// Help ▸ User guide: the user guide (docs/index.md and the pages it links, installed under share/ckpt/docs) in a
// window of its own, read as Markdown by Qt's text browser; links to other sites open in the web browser.
#include <QDialog>
#include <QHash>
#include <QSize>
#include <QUrl>

class QMenuBar;
class QResizeEvent;
class QTextBrowser;

class UserGuide : public QDialog {
    Q_OBJECT
public:
    explicit UserGuide(QWidget* parent = nullptr);
    // docs/index.md under the shipped data (examplefiles.h's resourceRoot), or "" when it is not there.
    static QString indexPath();
    QTextBrowser* browser() const { return m_browser; }
    void home(); // back to the contents page

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // The pictures (the explorer's screenshots are 1600 pixels wide) as wide as the page at most, in proportion.
    void fitImages();
    QSize naturalSize(const QString& name); // a picture's pixels, read once (a resize fits them again and again)

    QTextBrowser* m_browser;
    QHash<QUrl, QSize> m_sizes;
};

// The window's Help menu: User guide (F1), Keyboard shortcuts, What's This (Shift+F1), About.
void buildHelpMenu(QMenuBar* bar, QWidget* window);
