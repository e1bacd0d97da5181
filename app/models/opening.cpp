#include "opening.h"

#include "document.h"
#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/project_io.h"
#include "run/plan_files.h"
#include "run/runner.h"
#include "startsettings.h"

using namespace ckpt;

Result<Opened> openInto(Document& doc, const QString& path) {
    const std::string p = path.toStdString();
    auto json = loadJson(p);
    if (!json) return json.errorValue();
    switch (documentKindOf(*json)) {
    case DocumentKind::Project: {
        auto proj = projectFromJson(*json, p);
        if (!proj) return proj.errorValue();
        doc.setProject(*proj);
        return Opened{Opened::Kind::Project, nullptr};
    }
    case DocumentKind::Chain: {
        auto c = chainFromJson(*json, p);
        if (!c) return c.errorValue();
        doc.setProject(Project{*c, doc.hardware(), chainStartSettings(*c, doc.settings(), doc.hardware())});
        return Opened{Opened::Kind::Chain, nullptr};
    }
    case DocumentKind::Graph: {
        auto g = graphFromJson(*json, p);
        if (!g) return g.errorValue();
        Project proj = doc.project();
        proj.graph = *g;
        proj.settings = graphStartSettings(*g, doc.hardware());
        doc.setProject(proj);
        return Opened{Opened::Kind::Graph, nullptr};
    }
    case DocumentKind::GraphPlan: {
        if (!doc.isGraph()) return fail(p + ": a graph plan names the nodes of a graph: open the graph first");
        auto plan = planFromJsonFor(*json, doc.problem(), p);
        if (!plan) return plan.errorValue();
        auto run = std::make_shared<const Run>(runPlan(*plan, doc.problem(), doc.hardware()));
        if (!run->feasible) return fail(run->message);
        return Opened{Opened::Kind::GraphPlan, run};
    }
    case DocumentKind::Hardware: {
        auto h = hardwareFromJson(*json, p);
        if (!h) return h.errorValue();
        doc.setHardware(*h);
        return Opened{Opened::Kind::Hardware, nullptr};
    }
    default:
        if (json->is_object() && json->value("format", nlohmann::json()) == "ckpt-lesson")
            return Opened{Opened::Kind::Lesson, nullptr};
        return fail(p + ": expected a \"format\" of ckpt-project, ckpt-chain, ckpt-graph, ckpt-hardware, "
                        "ckpt-graph-plan or ckpt-lesson");
    }
}
