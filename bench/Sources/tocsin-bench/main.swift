import Foundation

// tocsin-bench: measures Tocsin and the alternatives side by side (run it through bench/run).
// Everything lives in BenchmarkRun; this file reads the command line and writes the results.
do {
    let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
    let tools = try BenchTools.locate(packageDirectory: options.packageDirectory, binaryDirectory: options.binaryDirectory)
    var plan: BenchPlan = options.quick ? .quick : .full
    if let window = options.idleWindow { plan.idleWindow = window }
    let results = try BenchmarkRun(plan: plan, tools: tools, steps: options.steps ?? Set(BenchStep.allCases)).execute()
    let output = options.outputDirectory ?? options.packageDirectory.appendingPathComponent("bench/results")
    print(Report.markdown(results, previousIdleThreads: BenchResults.previousIdleThreads(in: output)))
    let file = try results.write(to: output)
    FileHandle.standardError.write(Data("tocsin-bench: results written to \(file.path) and latest.json\n".utf8))
} catch {
    FileHandle.standardError.write(Data("tocsin-bench: \(error)\n".utf8))
    exit(1)
}
