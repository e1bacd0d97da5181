#pragma once
// The `ckpt` subcommands. Each returns the process exit code: 0 done, 1 infeasible, 2 bad input.
namespace ckpt::cli {

enum Exit { Done = 0, Infeasible = 1, BadInput = 2 };

int cmdList(int argc, char** argv);
int cmdSolve(int argc, char** argv);
int cmdSimulate(int argc, char** argv);
int cmdCompare(int argc, char** argv);
int cmdBench(int argc, char** argv);
int benchGraphs(const class Args& args); // cli/bench_graphs.cpp: ckpt bench --graphs
int benchImport(const class Args& args); // cli/bench_import.cpp: ckpt bench --onnx
int cmdGenerate(int argc, char** argv);  // cli/generate.cpp
int cmdReproduce(int argc, char** argv); // cli/reproduce.cpp
int cmdImport(int argc, char** argv);    // cli/import.cpp: an ONNX model as a graph or a chain
int cmdTrain(int argc, char** argv);     // cli/train.cpp: the real RNN trainer (engine/trainer)
int cmdPipeline(int argc, char** argv);  // cli/pipeline.cpp: GPipe, a chain over devices in a line
int cmdLayout(int argc, char** argv);    // cli/layout.cpp: a chain plan's tensors at addresses, fragmentation
int cmdExplain(int argc, char** argv);   // cli/explain.cpp: a chain plan narrated action by action
int cmdLesson(int argc, char** argv);    // cli/lesson.cpp: a lesson's scenes solved (io/lesson_io.h)
int cmdRender(int argc, char** argv);    // cli/render.cpp, built with the charts of app/plots
int cmdFigure(int argc, char** argv);    // cli/figure.cpp: several charts from a spec (io/figure_io.h), idem

} // namespace ckpt::cli
