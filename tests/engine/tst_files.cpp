// engine/io/atomic_write.cpp: saves replace only the named file (through its links), keep its mode, leave no
// temporary behind, never follow a link someone placed in the folder, and never replace a read-only file.
#include "io/presets.h"
#include "util/data_dirs.h"
#include "util/files.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ckpt;

namespace {

std::string text(const std::string& path) {
    auto r = readTextFile(path);
    return r ? *r : "<" + r.error() + ">";
}

void put(const std::string& path, const std::string& content) {
    std::ofstream(path, std::ios::binary) << content;
}

// Every entry of a folder, hidden ones included (the temporary starts with a dot).
QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

mode_t modeOf(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : mode_t(-1);
}

bool isLink(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

} // namespace

#define COMPARE_STR(actual, expected) QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

class TestFiles : public QObject {
    Q_OBJECT
private slots:
    void linkAtTheOldTemporaryNameIsNotFollowed();
    void modeIsKept();
    void newFileGetsTheUmaskMode();
    void linkedDestinationStaysALink();
    void noTemporaryAfterSuccess();
    void noTemporaryAfterFailedWrite();
    void folderDestinationIsRefused();
    void readOnlyFileIsRefused();
    void pipeWithoutReaderFailsAtOnce();
    void presetsByName();
    void installedProgramsReadTheirOwnData();
};

void TestFiles::linkAtTheOldTemporaryNameIsNotFollowed() {
    QTemporaryDir work, outside;
    const std::string victim = outside.filePath("victim").toStdString();
    put(victim, "untouched");
    const std::string dest = work.filePath("a.json").toStdString();
    put(dest, "old");
    // The name the writer used to open with fopen("wb"), which followed the link and truncated its target.
    QVERIFY(::symlink(victim.c_str(), (dest + ".tmp").c_str()) == 0);
    QVERIFY(writeTextFileAtomic(dest, "new").ok());
    COMPARE_STR(text(victim), "untouched");
    COMPARE_STR(text(dest), "new");
    QVERIFY(isLink(dest + ".tmp"));
    QCOMPARE(entries(work.path()), QStringList({"a.json", "a.json.tmp"}));
}

void TestFiles::modeIsKept() {
    QTemporaryDir work;
    const std::string dest = work.filePath("secret.json").toStdString();
    for (mode_t mode : {mode_t(0600), mode_t(0640), mode_t(0755)}) {
        put(dest, "old");
        QVERIFY(::chmod(dest.c_str(), mode) == 0);
        QVERIFY(writeTextFileAtomic(dest, "new").ok());
        QCOMPARE(modeOf(dest), mode);
        COMPARE_STR(text(dest), "new");
    }
}

void TestFiles::newFileGetsTheUmaskMode() {
    QTemporaryDir work;
    const mode_t mask = ::umask(027); // this test has no other thread, so setting the umask is safe here
    const std::string dest = work.filePath("new.json").toStdString();
    auto ok = writeTextFileAtomic(dest, "x");
    ::umask(mask);
    QVERIFY(ok.ok());
    QCOMPARE(modeOf(dest), mode_t(0640)); // 0666 & ~027, as fopen would have made it
}

void TestFiles::linkedDestinationStaysALink() {
    QTemporaryDir work;
    QVERIFY(QDir(work.path()).mkdir("real"));
    const std::string target = work.filePath("real/t.json").toStdString();
    put(target, "old");
    QVERIFY(::chmod(target.c_str(), 0600) == 0);
    // A relative link, and a link to that link: both resolve against the folder of the link that holds them.
    const std::string link = work.filePath("link.json").toStdString();
    const std::string link2 = work.filePath("real/link2.json").toStdString();
    QVERIFY(::symlink("real/t.json", link.c_str()) == 0);
    QVERIFY(::symlink("../link.json", link2.c_str()) == 0);
    QVERIFY(writeTextFileAtomic(link, "through one link").ok());
    QVERIFY(isLink(link));
    COMPARE_STR(text(target), "through one link");
    QVERIFY(writeTextFileAtomic(link2, "through two links").ok());
    QVERIFY(isLink(link) && isLink(link2));
    COMPARE_STR(text(target), "through two links");
    QCOMPARE(modeOf(target), mode_t(0600));
    QCOMPARE(entries(work.filePath("real")), QStringList({"link2.json", "t.json"}));

    // A dangling link: the save creates its target, as writing through the link would.
    const std::string dangling = work.filePath("dangling.json").toStdString();
    QVERIFY(::symlink("real/made.json", dangling.c_str()) == 0);
    QVERIFY(writeTextFileAtomic(dangling, "made").ok());
    QVERIFY(isLink(dangling));
    COMPARE_STR(text(work.filePath("real/made.json").toStdString()), "made");

    const std::string loop = work.filePath("loop.json").toStdString();
    QVERIFY(::symlink("loop.json", loop.c_str()) == 0);
    auto refused = writeTextFileAtomic(loop, "x");
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().find("cannot follow its links") != std::string::npos, refused.error().c_str());
}

void TestFiles::noTemporaryAfterSuccess() {
    QTemporaryDir work;
    const std::string dest = work.filePath("a.json").toStdString();
    for (int i = 0; i < 20; ++i)
        QVERIFY(writeTextFileAtomic(dest, std::string(std::size_t(i) * 1000, 'x')).ok());
    QCOMPARE(entries(work.path()), QStringList({"a.json"}));
    QCOMPARE(text(dest).size(), std::size_t(19000));
    // A name as long as the file system allows still gets a temporary (its name is shortened).
    const std::string longName = work.filePath(QString(250, 'n')).toStdString();
    QVERIFY(writeTextFileAtomic(longName, "long").ok());
    COMPARE_STR(text(longName), "long");
    QCOMPARE(entries(work.path()).size(), 2);
}

void TestFiles::noTemporaryAfterFailedWrite() {
    // A file size limit makes write() fail after the temporary exists, for root too (permissions would not).
    QTemporaryDir work;
    const std::string dest = work.filePath("a.json").toStdString();
    put(dest, "old");
    struct rlimit saved {};
    QVERIFY(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
    auto previous = std::signal(SIGXFSZ, SIG_IGN); // else the process is killed; with it ignored, write gets EFBIG
    struct rlimit small = saved;
    small.rlim_cur = 1000;
    QVERIFY(::setrlimit(RLIMIT_FSIZE, &small) == 0);
    auto r = writeTextFileAtomic(dest, std::string(5000, 'x'));
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previous);
    QVERIFY(!r.ok());
    COMPARE_STR(r.error(), dest + ": cannot write (File too large)");
    COMPARE_STR(text(dest), "old");
    QCOMPARE(entries(work.path()), QStringList({"a.json"}));
}

void TestFiles::folderDestinationIsRefused() {
    QTemporaryDir work;
    QVERIFY(QDir(work.path()).mkdir("d"));
    const std::string dest = work.filePath("d").toStdString();
    auto r = writeTextFileAtomic(dest, "x");
    QVERIFY(!r.ok());
    COMPARE_STR(r.error(), dest + ": cannot write (Is a directory)");
    QCOMPARE(entries(work.path()), QStringList({"d"}));
    QVERIFY(entries(work.filePath("d")).isEmpty());
}

void TestFiles::readOnlyFileIsRefused() {
    // Renaming over a file needs only the folder's permission, so a read-only file used to be replaced without a
    // word. A file whose owner has no write bit is refused as cp refuses it, for root too (these tests may run as
    // root, who passes every permission check); through a link the link's name is the one reported.
    QTemporaryDir work;
    const std::string dest = work.filePath("a.json").toStdString();
    const std::string link = work.filePath("link.json").toStdString();
    QVERIFY(::symlink("a.json", link.c_str()) == 0);
    for (mode_t mode : {mode_t(0444), mode_t(0400), mode_t(0577)}) {
        for (const std::string& named : {dest, link}) {
            put(dest, "old");
            QVERIFY(::chmod(dest.c_str(), mode) == 0);
            auto r = writeTextFileAtomic(named, "new");
            QVERIFY(!r.ok());
            COMPARE_STR(r.error(), named + ": cannot write (Permission denied: the file is read-only)");
            COMPARE_STR(text(dest), "old");
            QCOMPARE(modeOf(dest), mode);
            QVERIFY(isLink(link));
            QCOMPARE(entries(work.path()), QStringList({"a.json", "link.json"}));
            QVERIFY(::chmod(dest.c_str(), 0600) == 0);
        }
    }
}

void TestFiles::pipeWithoutReaderFailsAtOnce() {
    // Renaming a file over a pipe or a device (/dev/null) would replace the node: they are written in place, and a
    // pipe nobody reads is refused instead of blocking.
    QTemporaryDir work;
    const std::string fifo = work.filePath("pipe").toStdString();
    QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
    auto r = writeTextFileAtomic(fifo, "x");
    QVERIFY(!r.ok());
    COMPARE_STR(r.error(), fifo + ": no process reads this pipe (No such device or address)");
    struct stat st {};
    QVERIFY(::lstat(fifo.c_str(), &st) == 0 && S_ISFIFO(st.st_mode));
    QCOMPARE(entries(work.path()), QStringList({"pipe"}));
}

// One rule for what names a shipped preset, and where it is: the command line, figure specs, lessons and the explorer
// all use io/presets.h.
void TestFiles::presetsByName() {
    for (const char* name : {"gpu-a100", "laptop", "a.b"})
        QVERIFY2(isPresetName(name), name);
    for (const char* name : {"", "hw/gpu-a100", "..\\gpu-a100", "gpu-a100.json", "./gpu", "/abs"})
        QVERIFY2(!isPresetName(name), name);
    QTemporaryDir a, b;
    QVERIFY(QDir(a.path()).mkpath("resources/hardware") && QDir(b.path()).mkpath("resources/hardware"));
    auto touch = [](const QString& path) {
        QFile f(path);
        return f.open(QIODevice::WriteOnly);
    };
    QVERIFY(touch(a.filePath("resources/hardware/one.ckpt-hardware.json")));
    QVERIFY(touch(b.filePath("resources/hardware/one.ckpt-hardware.json")));
    QVERIFY(touch(b.filePath("resources/hardware/two.ckpt-hardware.json")));
    QVERIFY(touch(b.filePath("resources/hardware/notes.json")));
    const std::vector<std::filesystem::path> roots{a.path().toStdString(), b.path().toStdString()};
    QCOMPARE(presetPath("one", roots), a.filePath("resources/hardware/one.ckpt-hardware.json").toStdString());
    QCOMPARE(presetPath("two", roots), b.filePath("resources/hardware/two.ckpt-hardware.json").toStdString());
    QCOMPARE(presetPath("three", roots), std::string());
    QCOMPARE(presetPath("one.json", roots), std::string()); // a file's name, not a preset's
    QCOMPARE(presetNames(roots), std::vector<std::string>({"one", "two"}));
}

// An installed program reads PREFIX/share/ckpt beside its PREFIX/bin, never the source tree it was built from (a
// package unpacked on the build machine would otherwise pass its check with data it does not hold); one run from
// this build tree reads the source tree; CKPT_DATA_DIR comes first.
void TestFiles::installedProgramsReadTheirOwnData() {
    QTemporaryDir prefix;
    QVERIFY(QDir(prefix.path()).mkpath("bin") && QDir(prefix.path()).mkpath("share/ckpt/examples"));
    const std::filesystem::path installed = prefix.filePath("bin/ckpt").toStdString();
    const std::filesystem::path share = prefix.filePath("share/ckpt").toStdString();
    QCOMPARE(dataRootsFor(installed, ""), std::vector<std::filesystem::path>({share}));

    const std::filesystem::path built = std::filesystem::path(CKPT_BINARY_DIR) / "cli" / "ckpt";
    const auto fromBuild = dataRootsFor(built, "");
    QVERIFY(!fromBuild.empty());
    QCOMPARE(std::filesystem::canonical(fromBuild.front()), std::filesystem::canonical(CKPT_SOURCE_DIR));

    QTemporaryDir other;
    const std::string env = other.path().toStdString();
    QCOMPARE(dataRootsFor(installed, env), std::vector<std::filesystem::path>({env, share}));
    QCOMPARE(dataRootsFor(installed, prefix.filePath("missing").toStdString()),
             std::vector<std::filesystem::path>({share})); // a folder that is not there is skipped
    // A program elsewhere, with no share/ckpt beside it: nothing, not the source tree.
    QCOMPARE(dataRootsFor(other.filePath("ckpt").toStdString(), ""), std::vector<std::filesystem::path>());
}

QTEST_GUILESS_MAIN(TestFiles)
#include "tst_files.moc"
