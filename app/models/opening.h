#pragma once
// A file opened into the document, judged by its "format" (parsed once: a large chain takes seconds to parse). A
// project replaces the document; a chain or a graph replaces its problem, with the settings a new problem starts with
// (models/startsettings.h); a machine replaces its hardware; a graph plan (of the open graph) comes back as the run to
// show; a lesson is the caller's to open. The error names the file and what was expected.
#include "util/result.h"

#include <QString>
#include <memory>

class Document;
namespace ckpt {
struct Run;
}

struct Opened {
    enum class Kind { Project, Chain, Graph, Hardware, GraphPlan, Lesson };
    Kind kind = Kind::Project;
    std::shared_ptr<const ckpt::Run> run; // the graph plan's
};

ckpt::Result<Opened> openInto(Document& doc, const QString& path);
