#!/usr/bin/env python3
"""Checks the JSON Schemas of docs/schemas/ against the files the project ships and the files the program writes,
and shows they are not vacuous: mutations of a valid file that the schema refuses are refused by the program too.

    check_schemas.py --source DIR --ckpt CKPT --project-tool TOOL [--charts 0|1]

1. Every schema is a valid draft 2020-12 schema with an $id (its file name), a title and a description.
2. Every shipped file is valid against the schema its name ends with (.ckpt-chain.json: ckpt-chain.schema.json...):
   the *.ckpt-*.json files git tracks (or would add) outside tests/fuzz (whose corpus is malformed on purpose, and
   whose named files are copies of the examples), and every file of examples/lessons/, examples/figures/ and
   resources/hardware/. A shipped file with no schema fails.
3. What the program writes is valid: plans of `ckpt solve --out` (chains and graphs, with every kind of action but
   "D"), which `ckpt simulate` reads back; graphs of `ckpt generate` (every --kind); projects of a chain and of a
   graph written by saveProject, as the explorer's File > Save does, and read back by loadProject (TOOL,
   tests/schemas/project_file.cpp: no ckpt subcommand writes or reads projects), which hold a chain and hardware
   as the program writes them.
4. For each format, a small valid file is accepted by the schema and by the program (ckpt solve, simulate, lesson
   --check, figure; TOOL read for projects), a member the program does not know is accepted by both, and each
   mutation (a required member removed, a negative size, a wrong type, a wrong "format"...) is refused by both: the
   schema finds an error and the program exits 2 (bad input).
Prints one line per failure and ends with "N passed, M failed"; exits 1 when anything failed.
"""
import argparse
import copy
import json
import os
import pathlib
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:  # CMake may have found a Python without it; Debian's python3-jsonschema is scripts/setup-debian's
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("check_schemas: no jsonschema module for %s (scripts/setup-debian installs python3-jsonschema)"
             % sys.executable)

SCHEMAS = ["ckpt-chain", "ckpt-graph", "ckpt-hardware", "ckpt-project", "ckpt-lesson", "ckpt-figure", "ckpt-plan"]
# A file's name ends with ".<suffix>.json"; the schema that describes it.
SUFFIXES = {name: name for name in SCHEMAS}
SUFFIXES["ckpt-graph-plan"] = "ckpt-plan"
# Folders whose every file is shipped data the program reads.
DATA_DIRS = ["examples/lessons", "examples/figures", "resources/hardware"]
BAD_INPUT = 2

passed = 0
failures = []


def ok(what):
    global passed
    passed += 1
    if verbose:
        print("ok:", what)


def fail(what):
    failures.append(what)
    print("FAIL:", what, flush=True)


def load_schemas(folder):
    schemas = {}
    for name in SCHEMAS:
        path = folder / (name + ".schema.json")
        if not path.exists():
            fail("%s: missing" % path)
            continue
        schema = json.loads(path.read_text(encoding="utf-8"))
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as e:
            fail("%s: not a valid draft 2020-12 schema: %s" % (path, e.message))
            continue
        problems = [key for key in ("$id", "title", "description") if not schema.get(key)]
        if schema.get("$id") != path.name:
            problems.append("$id is not %s" % path.name)
        if problems:
            fail("%s: %s" % (path, ", ".join(problems)))
            continue
        schemas[name] = schema
        ok(path.name)
    extra = sorted(p.name for p in folder.glob("*.schema.json") if p.name[:-len(".schema.json")] not in SCHEMAS)
    if extra:
        fail("docs/schemas has schemas this test does not know: %s" % ", ".join(extra))
    # The units are defined in each schema that uses them (so that each file stands alone): alike in all.
    for unit in ("seconds", "bytes", "rate"):
        defs = {n: s["$defs"][unit] for n, s in schemas.items() if unit in s.get("$defs", {}) and n != "ckpt-figure"}
        if len({json.dumps(d, sort_keys=True) for d in defs.values()}) > 1:
            fail("$defs/%s differs between %s" % (unit, ", ".join(sorted(defs))))
    return schemas


def validators(schemas):
    """A validator per schema that resolves the $refs between the schema files (ckpt-project's)."""
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
        registry = Registry().with_resources(
            (s["$id"], Resource.from_contents(s, default_specification=DRAFT202012)) for s in schemas.values())
        return {n: jsonschema.Draft202012Validator(s, registry=registry) for n, s in schemas.items()}
    except ImportError:  # jsonschema before 4.18 (Debian 12 has 4.10)
        store = {s["$id"]: s for s in schemas.values()}
        return {n: jsonschema.Draft202012Validator(s, resolver=jsonschema.RefResolver.from_schema(s, store=store))
                for n, s in schemas.items()}


def schema_of(path):
    name = path.name
    if name.endswith(".json") and ".ckpt-" in name:
        suffix = name[name.rindex(".ckpt-") + 1:-len(".json")]
        return SUFFIXES.get(suffix)
    return None


def errors(validator, doc):
    return sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))


def where(error):
    return "".join("[%d]" % p if isinstance(p, int) else ".%s" % p for p in error.absolute_path).lstrip(".") or "(root)"


def check_valid(what, doc, schema):
    errs = errors(V[schema], doc)
    if errs:
        for e in errs[:3]:
            e = jsonschema.exceptions.best_match([e])  # into a oneOf: "-1 is less than the minimum of 0"
            fail("%s: not valid against %s.schema.json: %s: %s" % (what, schema, where(e), e.message[:300]))
        return False
    ok("%s valid against %s.schema.json" % (what, schema))
    return True


def shipped_files(root):
    try:
        # Tracked files, and new ones not yet added (but not what .gitignore leaves out: the build trees).
        listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                                 "--exclude-standard"], capture_output=True, check=True).stdout
        files = [root / f for f in listed.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: every file but the build trees'
        files = []
        for folder, dirs, names in os.walk(root):
            rel = pathlib.Path(folder).relative_to(root)
            dirs[:] = [d for d in dirs if not (d.startswith(".") or (rel == pathlib.Path(".") and d.startswith(
                ("build", "out"))))]
            files += [pathlib.Path(folder) / n for n in names]
    chosen = set()
    for f in files:
        rel = f.relative_to(root).as_posix()
        if rel.startswith("tests/fuzz/") or not f.is_file():
            continue
        if ".ckpt-" in f.name and f.name.endswith(".json"):
            chosen.add(f)
        elif any(rel.startswith(d + "/") for d in DATA_DIRS):
            chosen.add(f)
    return sorted(chosen)


def run(args, what, expect=0):
    """Runs a command; a failure when its exit status is not `expect`. Returns its stderr."""
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=120)
    if p.returncode != expect:
        fail("%s: `%s` exited %d, expected %d: %s" % (what, " ".join(map(str, args[1:])), p.returncode, expect,
                                                     (p.stderr or p.stdout).strip()[-400:]))
        return None
    return p.stderr


def write_json(path, doc):
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------------------------------
# Mutations: each (name, function) changes a deep copy of a valid document.

def drop(*path):
    def f(d):
        for p in path[:-1]:
            d = d[p]
        del d[path[-1]]
    return f


def put(value, *path):
    def f(d):
        for p in path[:-1]:
            d = d[p]
        d[path[-1]] = copy.deepcopy(value)
    return f


def main():
    global V, verbose
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", required=True, type=pathlib.Path)
    parser.add_argument("--ckpt", required=True)
    parser.add_argument("--project-tool", required=True)
    parser.add_argument("--charts", type=int, default=1, help="1 when ckpt was built with its charts (ckpt figure)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    verbose = args.verbose
    root = args.source.resolve()
    ckpt, tool = args.ckpt, args.project_tool

    schemas = load_schemas(root / "docs" / "schemas")
    if len(schemas) != len(SCHEMAS):
        return finish()
    V = validators(schemas)

    # 1. The shipped files.
    shipped = 0
    for f in shipped_files(root):
        rel = f.relative_to(root).as_posix()
        schema = schema_of(f)
        if not schema:
            fail("%s: a shipped file with no schema (its name should end with .ckpt-<format>.json, one of %s)"
                 % (rel, ", ".join(sorted(SUFFIXES))))
            continue
        try:
            doc = json.loads(f.read_text(encoding="utf-8"))
        except ValueError as e:
            fail("%s: not JSON: %s" % (rel, e))
            continue
        shipped += check_valid(rel, doc, schema)

    with tempfile.TemporaryDirectory(prefix="ckpt-schemas-") as tmp:
        tmp = pathlib.Path(tmp)
        written = check_written(root, tmp, ckpt, tool)
        refused, accepted = check_mutations(root, tmp, ckpt, tool, args.charts)
    print("check_schemas: %d shipped files and %d files the program wrote are valid; %d mutations refused by schema "
          "and program; %d files with an unknown member accepted by both" % (shipped, written, refused, accepted))
    return finish()


def check_written(root, tmp, ckpt, tool):
    ex, hw = root / "examples", root / "resources" / "hardware"
    chain, graph = ex / "small-hetero-12.ckpt-chain.json", ex / "linear-32.ckpt-graph.json"
    a100 = hw / "gpu-a100.ckpt-hardware.json"
    count = 0
    # No shipped graph has reversible nodes: linear-32 with every node but the first reversible, for "invert".
    doc = json.loads(graph.read_text())
    for node in doc["nodes"][1:]:
        node["reversible"] = True
    reversible = write_json(tmp / "reversible-32.ckpt-graph.json", doc)
    # Plans: (name, problem, options, the kinds of action it must hold, so that every kind is validated).
    plans = [
        ("chain-revolve", chain, ["--scheduler", "revolve", "--slots", "3"], {"F", "B"}),
        ("chain-async-multistage", chain, ["--scheduler", "async-multistage", "--hardware", a100], {"W", "R"}),
        ("chain-offload-all", chain, ["--scheduler", "offload-all", "--hardware", a100, "--budget", "50MiB"],
         {"WT", "RT", "DT"}),
        ("graph-dtr", graph, ["--scheduler", "dtr", "--budget", "50%"], {"forward", "backward", "free"}),
        ("graph-reversible", reversible, ["--scheduler", "reversible"], {"invert"}),
        ("graph-offload", ex / "resnet18-b32-224.ckpt-graph.json",
         ["--scheduler", "deepspeed-offload", "--hardware", a100], {"write", "read"}),
        ("graph-monet", ex / "convnet-algorithms-b32-64.ckpt-graph.json", ["--scheduler", "monet"], set()),
    ]
    kinds, has_impl = set(), False
    for name, problem, options, want in plans:
        out = tmp / ("%s.%s.json" % (name, "ckpt-plan" if name.startswith("chain") else "ckpt-graph-plan"))
        if run([ckpt, "solve", problem, *options, "--out", out], "ckpt solve (%s)" % name) is None:
            continue
        doc = json.loads(out.read_text())
        got = {a[0] for a in doc.get("actions", [])}
        kinds |= got
        has_impl |= bool(doc.get("implementations"))
        if not want <= got:
            fail("ckpt solve (%s): the plan has no %s action: the test would not cover it" % (name, sorted(want - got)))
        count += check_valid("plan of ckpt solve (%s)" % name, doc, "ckpt-plan")
        machine = options[options.index("--hardware"):][:2] if "--hardware" in options else []
        run([ckpt, "simulate", problem, out, *machine], "ckpt simulate reads the plan of ckpt solve (%s)" % name)
    # Every kind of action but "D" (a state's copy freed on a slower level), which no scheduler was seen to write on
    # these problems (h-revolve may); its form is W's and R's.
    every = {"F", "B", "W", "R", "WT", "RT", "DT", "forward", "backward", "free", "invert", "write", "read"}
    if not every <= kinds:
        fail("the plans written hold no %s action: choose schedulers that write them" % sorted(every - kinds))
    if not has_impl:
        fail("no plan written names \"implementations\" (monet on convnet-algorithms should)")
    # Graphs of ckpt generate, every kind.
    for kind, options in [("random-dag", ["--nodes", "20", "--seed", "3"]), ("join", ["--nodes", "20", "--width", "3"]),
                          ("linear", ["--nodes", "8"]),
                          ("transformer", ["--layers", "2", "--hidden", "256", "--heads", "4", "--seq", "128",
                                           "--vocab", "1000", "--flash-attention", "--hardware", "gpu-a100"])]:
        out = tmp / ("generated-%s.ckpt-graph.json" % kind)
        if run([ckpt, "generate", "--kind", kind, *options, "--out", out], "ckpt generate --kind " + kind) is None:
            continue
        count += check_valid("graph of ckpt generate --kind " + kind, json.loads(out.read_text()), "ckpt-graph")
    # Projects, as File > Save writes them.
    for name, problem in [("chain", chain), ("graph", ex / "convnet-algorithms-b32-64.ckpt-graph.json")]:
        out = tmp / ("written-%s.ckpt-project.json" % name)
        if run([tool, "write", problem, a100, out], "project_file write (%s)" % name) is None:
            continue
        count += check_valid("project of a %s as saveProject writes it" % name, json.loads(out.read_text()),
                             "ckpt-project")
        run([tool, "read", out], "project_file read (%s)" % name)
    return count


def check_mutations(root, tmp, ckpt, tool, charts):
    ex, hw = root / "examples", root / "resources" / "hardware"
    chain_file, graph_file = ex / "small-hetero-12.ckpt-chain.json", ex / "linear-32.ckpt-graph.json"
    a100 = hw / "gpu-a100.ckpt-hardware.json"
    chain = json.loads(chain_file.read_text())
    graph = json.loads(graph_file.read_text())
    hardware = json.loads(a100.read_text())
    # The plans and the project the program wrote above.
    bases = ["chain-async-multistage.ckpt-plan.json", "graph-dtr.ckpt-graph-plan.json",
             "written-chain.ckpt-project.json"]
    if not all((tmp / f).exists() for f in bases):
        fail("the program did not write the plans and the project the mutations start from")
        return 0, 0
    plan = json.loads((tmp / "chain-async-multistage.ckpt-plan.json").read_text())
    gplan = json.loads((tmp / "graph-dtr.ckpt-graph-plan.json").read_text())
    project = json.loads((tmp / "written-chain.ckpt-project.json").read_text())
    lesson = {"format": "ckpt-lesson", "version": 1, "title": "One scene",
              "scenes": [{"title": "Revolve", "problem": str(chain_file), "hardware": str(a100),
                          "scheduler": "revolve", "params": {"slots": 3}, "budget": "50%", "caption": "Look.",
                          "tab": "sweep"}]}
    figure = {"format": "ckpt-figure", "version": 1, "preset": "column", "size": "3inx2in",
              "grid": {"rows": 1, "cols": 2},
              "panels": [{"chart": "gantt", "problem": str(chain_file), "hardware": "gpu-a100",
                          "scheduler": "revolve", "params": {"revolve": {"slots": 3}}, "cell": {"row": 0, "col": 0}},
                         {"chart": "steps-vs-slots", "problem": str(chain_file),
                          "schedulers": ["revolve"], "slots": [2, 3]}]}

    def solve(f):
        return [ckpt, "solve", f, "--scheduler", "store-all"]

    formats = [
        ("ckpt-chain", chain, solve, [
            ("steps[0].forward removed", drop("steps", 0, "forward")),
            ("steps[0].state_bytes negative", put(-1, "steps", 0, "state_bytes")),
            ("steps[2].tape_bytes a text with no unit the program knows", put("12 parsecs", "steps", 2, "tape_bytes")),
            ("steps[0].backward a boolean", put(True, "steps", 0, "backward")),
            ("steps[1].forward over 1e9 s", put(2e9, "steps", 1, "forward")),
            ("steps empty", put([], "steps")),
            ("steps removed", drop("steps")),
            ("both steps and uniform", put({"length": 3, "forward": 1, "backward": 2, "state_bytes": 1,
                                            "tape_bytes": 1}, "uniform")),
            ("memory_model unknown", put("paper", "memory_model")),
            ("name a number", put(12, "name")),
            ("format wrong", put("ckpt-chian", "format")),
            ("version 2", put(2, "version")),
        ]),
        ("ckpt-graph", graph, solve, [
            ("nodes[0].id removed", drop("nodes", 0, "id")),
            ("nodes[3].output_bytes negative", put(-4096, "nodes", 3, "output_bytes")),
            ("nodes[0].forward a text that is no time", put("fast", "nodes", 0, "forward")),
            ("nodes[1].needs_inputs a text", put("yes", "nodes", 1, "needs_inputs")),
            ("nodes[2].implementations named default",
             put([{"name": "default", "forward": 0.001}], "nodes", 2, "implementations")),
            ("nodes empty", put([], "nodes")),
            ("edges[0] one id", put(["n0"], "edges", 0)),
            ("edges an object", put({"from": "n0"}, "edges")),
            ("format wrong", put("ckpt-grahp", "format")),
        ]),
        ("ckpt-hardware", hardware, lambda f: solve(chain_file) + ["--hardware", f], [
            ("levels removed", drop("levels")),
            ("levels empty", put([], "levels")),
            ("levels[1].read_bytes_per_s removed", drop("levels", 1, "read_bytes_per_s")),
            ("levels[2].write_bytes_per_s zero", put(0, "levels", 2, "write_bytes_per_s")),
            ("levels[0].capacity_bytes negative", put(-5, "levels", 0, "capacity_bytes")),
            ("levels[1].capacity_bytes zero", put(0, "levels", 1, "capacity_bytes")),
            ("levels[1].flops_per_s on a slower level", put(1e12, "levels", 1, "flops_per_s")),
            ("levels[0].latency_s a text that is no time", put("soon", "levels", 0, "latency_s")),
            ("format wrong", put("ckpt-hw", "format")),
        ]),
        ("ckpt-plan", plan, lambda f: [ckpt, "simulate", chain_file, f, "--hardware", a100], [
            ("actions removed", drop("actions")),
            ("actions[0] a forward keeping what is not a keep", put(["F", 1, "keep"], "actions", 0)),
            ("actions[0] an unknown action", put(["X", 1], "actions", 0)),
            ("actions[1] a negative step", put(["B", -1], "actions", 1)),
            ("actions[2] a write without its level", put(["W", 1], "actions", 2)),
            ("actions a number", put(7, "actions")),
            ("budget_bytes negative", put(-1, "budget_bytes")),
            ("params a list", put(["slots", 3], "params")),
            ("version a text", put("1", "version")),
            ("format wrong", put("ckpt-graph-plan", "format")),
        ]),
        ("ckpt-plan", gplan, lambda f: [ckpt, "simulate", graph_file, f], [
            ("actions[0] without a node", put(["forward"], "actions", 0)),
            ("actions[0] a write without its level", put(["write", "n0"], "actions", 0)),
            ("actions[0] a forward with a level", put(["forward", "n0", 1], "actions", 0)),
            ("actions[1] a node id that is a number", put(["forward", 1], "actions", 1)),
            ("params not texts", put({"node_limit": 3}, "params")),
            ("predicted_makespan_s negative", put(-0.5, "predicted_makespan_s")),
            ("format wrong", put("ckpt-plan", "format")),
        ]),
        ("ckpt-project", project, lambda f: [tool, "read", f], [
            ("chain removed", drop("chain")),
            ("chain.steps[0].tape_bytes negative", put(-1, "chain", "steps", 0, "tape_bytes")),
            ("chain.format wrong", put("ckpt-graph", "chain", "format")),
            ("hardware.levels[1].latency_s negative", put(-1e-5, "hardware", "levels", 1, "latency_s")),
            ("settings.params a number not a text", put({"revolve": {"slots": 3}}, "settings", "params")),
            ("settings.schedulers a text", put("revolve", "settings", "schedulers")),
            ("settings.budget_bytes negative", put(-1, "settings", "budget_bytes")),
            ("format wrong", put("ckpt-chain", "format")),
        ]),
        ("ckpt-lesson", lesson, lambda f: [ckpt, "lesson", f, "--check"], [
            ("title removed", drop("title")),
            ("scenes empty", put([], "scenes")),
            ("scenes[0].caption empty", put("", "scenes", 0, "caption")),
            ("scenes[0].scheduler removed", drop("scenes", 0, "scheduler")),
            ("scenes[0].tab unknown", put("graphs", "scenes", 0, "tab")),
            ("scenes[0].budget negative", put(-1, "scenes", 0, "budget")),
            ("scenes[0].budget a list", put("5%,10%", "scenes", 0, "budget")),
            ("scenes[0].params a boolean", put({"slots": True}, "scenes", 0, "params")),
            ("format wrong", put("ckpt-lessons", "format")),
        ]),
    ]
    if charts:
        formats.append(("ckpt-figure", figure, lambda f: [ckpt, "figure", f, "--out", tmp / "figure.svg"], [
            ("panels[0].chart unknown", put("pie", "panels", 0, "chart")),
            ("panels[1].problem removed", drop("panels", 1, "problem")),
            ("panels[0] both scheduler and schedulers", put(["revolve"], "panels", 0, "schedulers")),
            ("panels[0] budgets on a gantt chart", put("5%,10%", "panels", 0, "budgets")),
            ("panels[0] slots on a gantt chart", put([2, 3], "panels", 0, "slots")),
            ("panels[0] a logarithmic axis on a gantt chart", put("memory", "panels", 0, "log")),
            ("panels[1] steps-vs-slots without slots", drop("panels", 1, "slots")),
            ("panels[1].slots a zero count", put([0, 3], "panels", 1, "slots")),
            ("grid.rows zero", put(0, "grid", "rows")),
            ("font_size 100 pt", put(100, "font_size")),
            ("preset unknown", put("poster", "preset")),
            ("panels[0].cell.col outside 0..15", put(16, "panels", 0, "cell", "col")),
            ("format wrong", put("ckpt-figures", "format")),
        ]))
    else:
        print("check_schemas: this ckpt has no charts (CKPT_BUILD_GUI=OFF): figure specs are not run through ckpt")

    refused = accepted = 0
    for k, (schema, base, command, mutations) in enumerate(formats):
        label = base["format"]
        # The base document and the same with an unknown member: valid for the schema and the program.
        for extra, doc in [("", base), (" with an unknown member", dict(base, x_unknown_member={"any": [1]}))]:
            f = write_json(tmp / ("base-%d%s.%s.json" % (k, "-extra" if extra else "", schema)), doc)
            if check_valid(label + " base" + extra, doc, schema):
                if run(command(f), "the program on the %s base%s" % (label, extra)) is not None:
                    accepted += bool(extra)
                    ok("the program reads the %s base%s" % (label, extra))
        for n, (what, mutate) in enumerate(mutations):
            doc = copy.deepcopy(base)
            mutate(doc)
            f = write_json(tmp / ("mutant-%d-%d.%s.json" % (k, n, schema)), doc)
            name = "%s: %s" % (label, what)
            schema_refuses = bool(errors(V[schema], doc))
            if not schema_refuses:
                fail("%s: the schema accepts it" % name)
            stderr = run(command(f), "%s: the program" % name, expect=BAD_INPUT)
            if schema_refuses and stderr is not None:
                refused += 1
                ok("%s: refused by schema and program (%s)" % (name, stderr.strip().splitlines()[-1][:160]))
    return refused, accepted


def finish():
    print("%d passed, %d failed" % (passed, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
