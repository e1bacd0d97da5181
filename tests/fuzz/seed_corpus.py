#!/usr/bin/env python3
"""Writes the hand-made seeds of tests/fuzz/corpus/: the project's examples and hardware presets, small malformed
files, and a reproducer for every case of issue 10 that a loader sees. Run from anywhere; it rewrites only the files
it names (corpus entries that libFuzzer runs found and were kept are left alone)."""
import json
import pathlib

here = pathlib.Path(__file__).resolve().parent
root = here.parent.parent
corpus = here / "corpus"


def put(loader, name, content):
    d = corpus / loader
    d.mkdir(parents=True, exist_ok=True)
    data = content if isinstance(content, bytes) else (
        content if isinstance(content, str) else json.dumps(content, indent=1)).encode()
    (d / name).write_bytes(data)


def step(f=1e-3, b=2e-3, x=1024, t=4096, **extra):
    return dict(forward=f, backward=b, state_bytes=x, tape_bytes=t, **extra)


def chain(steps, **extra):
    return dict({"format": "ckpt-chain", "version": 1, "name": "c", "steps": steps}, **extra)


def node(i, f=1e-3, out=1024, **extra):
    return dict({"id": i, "forward": f, "output_bytes": out}, **extra)


def graph(nodes, edges, **extra):
    return dict({"format": "ckpt-graph", "version": 1, "name": "g", "nodes": nodes, "edges": edges}, **extra)


def level(name, cap=None, r=1e9, w=1e9, lat=1e-5):
    return {"name": name, "capacity_bytes": cap, "read_bytes_per_s": r, "write_bytes_per_s": w, "latency_s": lat}


def hardware(levels):
    return {"format": "ckpt-hardware", "version": 1, "name": "h", "levels": levels}


def plan(actions, **extra):
    return dict({"format": "ckpt-plan", "version": 1, "scheduler": "hand", "actions": actions}, **extra)


def gplan(actions, **extra):
    return dict({"format": "ckpt-graph-plan", "version": 1, "scheduler": "hand", "actions": actions}, **extra)


def project(problem, **extra):
    return dict({"format": "ckpt-project", "version": 1, "hardware": hardware([level("gpu", 1 << 30)])}, **problem,
                **extra)


I64 = 2**63 - 1
formats = {"chain": "ckpt-chain", "hardware": "ckpt-hardware", "plan": "ckpt-plan", "graph": "ckpt-graph",
           "graph_plan": "ckpt-graph-plan", "project": "ckpt-project", "figure": "ckpt-figure",
           "lesson": "ckpt-lesson"}

# Every loader: the project's own files, and the header cases of issue 10 (non-string format, null included).
for f in sorted((root / "examples").glob("*.ckpt-chain.json")):
    put("chain", f.name, f.read_bytes())
for f in sorted((root / "examples").glob("*.ckpt-graph.json")):
    put("graph", f.name, f.read_bytes())
for f in sorted((root / "resources" / "hardware").glob("*.json")):
    put("hardware", f.name, f.read_bytes())
for f in sorted((root / "examples" / "figures").glob("*.ckpt-figure.json")):
    put("figure", f.name, f.read_bytes())
for f in sorted((root / "examples" / "lessons").glob("*.ckpt-lesson.json")):
    put("lesson", f.name, f.read_bytes())
for loader, fmt in formats.items():
    put(loader, "issue10-format-number.json", '{"format": 1, "version": 1}')
    put(loader, "issue10-format-null.json", '{"format": null, "version": 1}')
    put(loader, "format-array.json", '{"format": ["%s"], "version": 1}' % fmt)
    put(loader, "format-object.json", '{"format": {"a": 1}, "version": "1"}')
    put(loader, "version-string.json", '{"format": "%s", "version": "1"}' % fmt)
    put(loader, "version-huge.json", '{"format": "%s", "version": 18446744073709551617}' % fmt)
    put(loader, "version-2.json", '{"format": "%s", "version": 2}' % fmt)
    put(loader, "empty.json", "")
    put(loader, "blank.json", " \n\t ")
    put(loader, "not-object.json", "[1, 2, 3]")
    put(loader, "truncated.json", '{"format": "%s", "version": 1, "name": "x' % fmt)
    put(loader, "issue10-deep-nesting-open.json", "[" * 20000)
    put(loader, "issue10-deep-nesting-closed.json", "[" * 15000 + "]" * 15000)
    put(loader, "issue10-deep-nesting-member.json", '{"format": "%s", "version": 1, "name": %s}'
        % (fmt, "[" * 10000 + "]" * 10000))
    put(loader, "issue10-non-utf8.json", b'{"format": "' + fmt.encode() + b'", "version": 1, "name": "\xff\xfe\xc3("}')
    put(loader, "lone-surrogate.json", '{"format": "%s", "version": 1, "name": "\\ud800"}' % fmt)
    put(loader, "nul-byte.json", b'{"format": "' + fmt.encode() + b'\x00", "version": 1}')
    put(loader, "issue10-number-1e400.json", '{"format": "%s", "version": 1, "x": 1e400}' % fmt)
    put(loader, "bom.json", b"\xef\xbb\xbf" + ('{"format": "%s", "version": 1}' % fmt).encode())

# Chains.
small = [step(1e-3 * i, 2e-3 * i, 1000 * i, 3000 + 500 * i) for i in range(1, 7)]
put("chain", "six-steps.json", chain(small))
put("chain", "uniform-100.json", {"format": "ckpt-chain", "version": 1, "uniform": dict(length=100, **step())})
put("chain", "units.json", chain([step("3ms", "6 ms", "512 KiB", "1.5 MiB"), step("1us", 0, "1 GB", 1)]))
put("chain", "tmp-bytes.json", chain([step(forward_tmp_bytes=10, backward_tmp_bytes=20)] * 3))
put("chain", "issue10-overflow-state-tape-5e18.json", chain([step(x=5 * 10**18, t=5 * 10**18)]))
put("chain", "issue10-overflow-tapes-sum.json", chain([step(x=1, t=4 * 10**18)] * 3))
put("chain", "issue10-overflow-tmp.json", chain([step(x=I64, t=I64, forward_tmp_bytes=I64, backward_tmp_bytes=I64)]))
put("chain", "issue10-time-1e308.json", chain([step(1e308, 1e308)] * 2))
put("chain", "issue10-time-sum-inf.json", chain([step(1e307, 1e307)] * 20))
put("chain", "time-denormal.json", chain([step(5e-324, 5e-324)]))
put("chain", "bytes-i64max.json", chain([step(x=I64, t=0)]))
put("chain", "bytes-u64.json", chain([step(x=2**64 - 1)]))
put("chain", "bytes-float.json", chain([step(x=1.5, t=1e19)]))
put("chain", "bytes-string-huge.json", chain([step(x="1e30 TiB", t="9 EiB")]))
put("chain", "negative.json", chain([step(-1e-3, x=-1)]))
put("chain", "nan-string.json", chain([step("nan s", "inf", "nan B")]))
put("chain", "uniform-length-int-max.json", {"format": "ckpt-chain", "version": 1,
                                             "uniform": dict(length=2**31, **step())})
put("chain", "uniform-length-float.json", {"format": "ckpt-chain", "version": 1,
                                           "uniform": dict(length=10.5, **step())})
put("chain", "steps-and-uniform.json", dict(chain(small), uniform=dict(length=3, **step())))
put("chain", "steps-empty.json", chain([]))
put("chain", "steps-not-objects.json", chain([1, "a", None, []]))
put("chain", "name-number.json", chain(small, name=5))

# Hardware.
put("hardware", "two-levels.json", hardware([level("gpu", 1 << 30), level("host", None, "25 GB/s", "20 GB/s")]))
put("hardware", "level0-only.json", hardware([{"name": "ram"}]))
put("hardware", "no-levels.json", hardware([]))
put("hardware", "capacity-zero.json", hardware([level("gpu", 0)]))
put("hardware", "capacity-i64max.json", hardware([level("gpu", I64), level("host", I64)]))
put("hardware", "capacity-huge-string.json", hardware([level("gpu", "1e30 TiB")]))
put("hardware", "issue10-rate-tiny.json", hardware([level("gpu", 1 << 20), level("disk", None, 1e-300, 1e-300)]))
put("hardware", "issue10-rate-denormal.json", hardware([level("gpu", 1 << 20), level("disk", None, 5e-324, 5e-324)]))
put("hardware", "issue10-rate-huge.json", hardware([level("gpu", 1 << 20), level("disk", None, 1e308, 1e308)]))
put("hardware", "issue10-latency-1e308.json", hardware([level("gpu", 1 << 20), level("disk", None, lat=1e308)]))
put("hardware", "rate-zero.json", hardware([level("gpu", 1 << 20), level("disk", None, 0, 0)]))
put("hardware", "rate-string-bad.json", hardware([level("gpu", 1 << 20), level("disk", None, "fast", "25 GB/h")]))
put("hardware", "many-levels.json", hardware([level("l%d" % i, 1 << (20 + i)) for i in range(40)]))

# Plans (the fuzz target reads them against a 6-step chain on a 3-level machine).
store_all = [["F", i, "tape"] for i in range(1, 7)] + [["B", i] for i in range(6, 0, -1)]
put("plan", "store-all-6.json", plan(store_all, chain={"name": "fixed", "length": 6}))
offload = [["F", 1, "state"], ["W", 0, 1], ["D", 0, 0], ["F", 2, "none"], ["F", 3, "none"], ["F", 4, "none"],
           ["F", 5, "none"], ["F", 6, "tape"], ["B", 6], ["R", 0, 1], ["F", 1, "tape"], ["F", 2, "tape"],
           ["F", 3, "tape"], ["F", 4, "tape"], ["F", 5, "tape"], ["B", 5], ["B", 4], ["B", 3], ["B", 2], ["B", 1]]
put("plan", "offload-6.json", plan(offload, params={"slots": 1, "mode": "x"}, budget_bytes=30000,
                                   predicted_makespan_s=0.1))
put("plan", "disk-6.json", plan([a if a[0] not in "WR" else [a[0], a[1], 2] for a in offload]))
put("plan", "bad-step.json", plan([["F", 0, "tape"], ["B", 7]]))
put("plan", "step-int-max.json", plan([["F", 2**31 - 1, "tape"], ["B", 2**31]]))
put("plan", "level-huge.json", plan([["F", 1, "state"], ["W", 0, 32768], ["R", 0, -1]]))
put("plan", "keep-bad.json", plan([["F", 1, "all"], ["F", 1], ["X", 1], [], "F", ["FF", 1, "tape"]]))
put("plan", "budget-i64max.json", plan(store_all, budget_bytes=I64, predicted_makespan_s=1e308))
put("plan", "budget-negative.json", plan(store_all, budget_bytes=-1))
put("plan", "params-bad.json", plan(store_all, params={"a": None, "b": [1], "c": {"d": 1}}))
put("plan", "params-number.json", plan(store_all, params={"slots": 1e308, "x": -0.0, "y": True}))
put("plan", "actions-not-array.json", plan({"F": 1}))
put("plan", "float-step.json", plan([["F", 1.0, "tape"], ["B", 1.5]]))
put("plan", "double-backward.json", plan(store_all + [["B", 1]]))

# Graphs.
put("graph", "diamond.json", graph([node("a"), node("b", needs_output=True), node("c", workspace_bytes=100),
                                    node("d", backward=0)], [["a", "b"], ["a", "c"], {"from": "b", "to": "d"},
                                                             ["c", "d"]]))
put("graph", "reversible.json", graph([node("a"), node("b", reversible=True, needs_inputs=False,
                                                        needs_output=True)], [["a", "b"]]))
put("graph", "issue10-output-bytes-i64max.json", graph([node("a", out=I64 - 10), node("b", out=I64 - 10)],
                                                       [["a", "b"]]))
put("graph", "issue10-output-workspace-sum.json", graph([node("a", out=2**62, workspace_bytes=2**62),
                                                         node("b", out=2**62, workspace_bytes=2**62)], [["a", "b"]]))
put("graph", "issue10-fanin-sum.json", graph([node("x%d" % i, out=2**61) for i in range(8)] + [node("y")],
                                             [["x%d" % i, "y"] for i in range(8)]))
put("graph", "issue10-time-1e308.json", graph([node("a", f=1e308), node("b", f=1e308)], [["a", "b"]]))
put("graph", "issue10-non-utf8-id.json", b'{"format": "ckpt-graph", "version": 1, "nodes": [{"id": "\xff", '
                                         b'"forward": 1, "output_bytes": 1}], "edges": []}')
put("graph", "cycle.json", graph([node("a"), node("b")], [["a", "b"], ["b", "a"]]))
put("graph", "self-loop.json", graph([node("a")], [["a", "a"]]))
put("graph", "duplicate-id.json", graph([node("a"), node("a")], []))
put("graph", "duplicate-edge.json", graph([node("a"), node("b")], [["a", "b"], ["a", "b"]]))
put("graph", "unknown-edge.json", graph([node("a")], [["a", "zz"]]))
put("graph", "empty-id.json", graph([node("")], []))
put("graph", "no-nodes.json", graph([], []))
put("graph", "edge-shapes.json", graph([node("a"), node("b")], [["a"], ["a", "b", "c"], [1, 2], {"from": "a"}]))
put("graph", "flags-not-bool.json", graph([node("a", needs_inputs=1, reversible="yes")], []))
put("graph", "reversible-two-inputs.json", graph([node("a"), node("b"), node("c", reversible=True)],
                                                 [["a", "c"], ["b", "c"]]))
put("graph", "disconnected.json", graph([node("a"), node("b"), node("c")], [["a", "b"]]))

# Graph plans (read against the fuzz target's fixed graph: a->b, a->c, b->d, c->d, d->e (reversible), e->f, a->f).
order = ["a", "b", "c", "d", "e", "f"]
gstore = [["forward", v] for v in order] + [["backward", v] for v in reversed(order)]
put("graph_plan", "store-all.json", gplan(gstore, graph={"name": "fixed", "nodes": 6}))
put("graph_plan", "offload.json", gplan([["forward", "a"], ["write", "a", 1], ["forward", "b"], ["forward", "c"],
                                         ["free", "a"], ["forward", "d"], ["forward", "e"], ["read", "a", 1],
                                         ["forward", "f"], ["backward", "f"], ["invert", "e"], ["backward", "e"],
                                         ["backward", "d"], ["backward", "c"], ["backward", "b"], ["backward", "a"],
                                         ["free", "a", 1]], params={"k": "v"}, budget_bytes=9000))
put("graph_plan", "disk.json", gplan([["forward", "a"], ["write", "a", 2], ["free", "a", 0], ["read", "a", 2]]))
put("graph_plan", "unknown-node.json", gplan([["forward", "zz"]]))
put("graph_plan", "level-bad.json", gplan([["write", "a", 1001], ["read", "a", -1], ["free", "a", 1.5]]))
put("graph_plan", "level-missing.json", gplan([["forward", "a"], ["write", "a"]]))
put("graph_plan", "invert-not-reversible.json", gplan([["forward", "a"], ["forward", "b"], ["invert", "b"]]))
put("graph_plan", "shapes.json", gplan([[], ["forward"], ["forward", 1], ["fly", "a"], "forward", {"a": 1}]))
put("graph_plan", "params-not-text.json", gplan(gstore, params={"k": 1}))
put("graph_plan", "budget-i64max.json", gplan(gstore, budget_bytes=I64, predicted_makespan_s=1e308))
put("graph_plan", "level-on-forward.json", gplan([["forward", "a", 1]]))

# Projects.
six = {"format": "ckpt-chain", "version": 1, "steps": small}
settings = {"scheduler": "revolve", "schedulers": ["revolve", "rotor"], "params": {"revolve": {"slots": "3"},
            "rotor": {"nope": "1"}, "checkmate": {"time_limit": "abc"}}, "budget_bytes": 20000,
            "budgets": "none,5%,20%,64KiB"}
put("project", "chain.json", project({"chain": six}, settings=settings))
put("project", "graph.json", project({"graph": json.loads((corpus / "graph" / "diamond.json").read_text())},
                                     settings=dict(settings, budgets="10%,1 MiB")))
put("project", "no-hardware.json", {"format": "ckpt-project", "version": 1, "chain": six})
put("project", "no-problem.json", {"format": "ckpt-project", "version": 1})
put("project", "settings-types.json", project({"chain": six}, settings={"scheduler": 1, "budgets": None}))
put("project", "settings-not-object.json", project({"chain": six}, settings=[1]))
put("project", "budget-negative.json", project({"chain": six}, settings={"budget_bytes": -5}))
put("project", "budgets-bad.json", project({"chain": six}, settings={"budgets": "1e400%,-5%,nan,,9999999 EiB"}))
put("project", "chain-not-object.json", project({"chain": "six"}))
put("project", "issue10-chain-overflow.json", project({"chain": json.loads(
    (corpus / "chain" / "issue10-overflow-state-tape-5e18.json").read_text())}, settings={"budgets": "50%"}))
put("project", "issue10-graph-overflow.json", project({"graph": json.loads(
    (corpus / "graph" / "issue10-output-bytes-i64max.json").read_text())}, settings={"budgets": "50%"}))
put("project", "issue10-chain-format-number.json", project({"chain": {"format": 1, "version": 1}}))
put("project", "issue10-hardware-format-null.json", project({"chain": six}, hardware={"format": None, "version": 1}))
put("project", "version-float.json", dict(project({"chain": six}), version=1.0))
put("project", "version-big.json", dict(project({"chain": six}), version=4294967297))

# Figure specs (only the spec is read: its problem and hardware files are not opened by the loader).


def figure(panels, **extra):
    return dict({"format": "ckpt-figure", "version": 1, "panels": panels}, **extra)


def panel(chart="tradeoff", **extra):
    return dict({"chart": chart, "problem": "p.json", "schedulers": ["revolve"]}, **extra)


put("figure", "grid-2x2.json", figure([panel(cell={"row": 1, "col": 1}), panel("gantt", budget="50%"),
                                       panel("steps-vs-slots", slots={"from": 1, "to": 9, "step": 4}),
                                       {"chart": "memory", "problem": "/abs/p.json", "scheduler": "rotor"}],
                                      grid={"rows": 2, "cols": 2},
                                      size="7inx5in", font_size=9, title="t"))
put("figure", "minimal.json", figure([panel()]))
put("figure", "series-objects.json", figure([panel(schedulers=["store-all", {"name": "bptt-dp", "params": {
    "variant": "hsm", "slots": 10, "alpha": 2.0}}], params={"bptt-dp": {"variant": "ism"}},
    budgets=["5%", "1 GiB", 1048576, "none"])]))
put("figure", "cell-overlap.json", figure([panel(cell={"row": 0, "col": 0, "rows": 2}), panel(cell={"row": 1, "col": 0})],
                                          grid={"rows": 2, "cols": 1}))
put("figure", "cell-outside.json", figure([panel(cell={"row": 3, "col": 0})], grid={"rows": 2, "cols": 2}))
put("figure", "grid-full.json", figure([panel(), panel(), panel()], grid={"rows": 1, "cols": 2}))
put("figure", "grid-huge.json", figure([panel()], grid={"rows": 2**40, "cols": -1}))
put("figure", "chart-bad.json", figure([panel("pie"), panel(5)]))
put("figure", "gantt-two-series.json", figure([panel("gantt", schedulers=["revolve", "rotor"])]))
put("figure", "gantt-budgets.json", figure([panel("gantt", budgets="5%,10%")]))
put("figure", "slots-huge-range.json", figure([panel("steps-vs-slots", slots={"from": 1, "to": 10**7})]))
put("figure", "slots-bad.json", figure([panel("steps-vs-slots", slots=[0, -1, 1.5, "3", 2**63])]))
put("figure", "slots-reversed.json", figure([panel("steps-vs-slots", slots={"from": 9, "to": 2})]))
put("figure", "steps-no-slots.json", figure([panel("steps-vs-slots")]))
put("figure", "runs-too-many.json", figure([panel(schedulers=["a"] * 32, budgets=",".join(["5%"] * 40))]))
put("figure", "budgets-bad.json", figure([panel(budgets="1e400%,-5%,nan,,9999999 EiB")]))
put("figure", "budgets-empty.json", figure([panel(budgets=[])]))
put("figure", "size-bad.json", figure([panel()], size="3.5inx1e400in", preset="poster", font_size="8"))
put("figure", "size-px.json", figure([panel()], size="800pxx600px", font_size=1e308))
put("figure", "params-bad.json", figure([panel(params={"revolve": {"slots": None, "x": [1], "y": True}})]))
put("figure", "series-bad.json", figure([panel(schedulers=[1, None, {"params": {}}, {"name": ""}, []])]))
put("figure", "both-scheduler-keys.json", figure([panel(scheduler="rotor")]))
put("figure", "no-panels.json", figure([]))
put("figure", "panels-many.json", figure([panel()] * 65, grid={"rows": 16, "cols": 16}))
put("figure", "problem-empty.json", figure([panel(problem="")]))
put("figure", "hardware-kinds.json", figure([panel(hardware="gpu-a100"), panel(hardware="../hw.json"),
                                             panel(hardware="x/y")], grid={"rows": 1, "cols": 3}))


# Lessons.
def lesson(scenes, **extra):
    return dict({"format": "ckpt-lesson", "version": 1, "title": "t", "scenes": scenes}, **extra)


def scene(**extra):
    return dict({"problem": "../small-hetero-12.ckpt-chain.json", "scheduler": "revolve", "caption": "c"}, **extra)


put("lesson", "minimal.json", lesson([scene()]))
put("lesson", "full.json", lesson([scene(title="s", hardware="../../resources/hardware/gpu-a100.ckpt-hardware.json",
                                         params={"slots": 3, "variant": "x"}, budget="40%")]))
put("lesson", "no-scenes.json", lesson([]))
put("lesson", "scenes-many.json", lesson([scene()] * 201))
put("lesson", "scenes-not-array.json", lesson({"a": scene()}))
put("lesson", "scene-not-object.json", lesson([1, None, "x", []]))
put("lesson", "empty-texts.json", lesson([scene(problem="", scheduler="", caption="")]))
put("lesson", "missing-caption.json", lesson([{"problem": "p", "scheduler": "s"}]))
put("lesson", "budget-list.json", lesson([scene(budget="5%,10%")]))
put("lesson", "budget-bad.json", lesson([scene(budget="1e400%"), scene(budget=-5), scene(budget=1.5),
                                         scene(budget=None), scene(budget=[1])]))
put("lesson", "budget-bytes.json", lesson([scene(budget=I64), scene(budget="9 EiB"), scene(budget="none")]))
put("lesson", "params-bad.json", lesson([scene(params={"slots": None, "x": [1], "y": True, "": 3})]))
put("lesson", "params-not-object.json", lesson([scene(params=[1, 2])]))
put("lesson", "title-missing.json", {"format": "ckpt-lesson", "version": 1, "scenes": [scene()]})
put("lesson", "title-number.json", lesson([scene(title=5)], title=7))
put("lesson", "param-empty-name.json", lesson([scene(params={"": "3"})]))
