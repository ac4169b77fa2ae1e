// Package sweep runs architecture trade-off studies: a spec (YAML) names
// workloads (kernels with their launch flags), axes (configuration keys
// with lists or ranges of values, the preset, seeds), metrics (paths into
// the JSON run report) and plots. The points of a study are the cross
// product of the axes with each workload, less the spec's exclude rules.
//
// The package runs nothing itself: it builds each point's `smsim run`
// arguments and hands them to a Runner (the command line supplies one that
// runs the CLI in-process). Results go into a SQLite database in the output
// directory, one row per point keyed by a hash of the point's effective
// configuration and workload, so that a re-run skips what is done. From the
// database it writes results.csv, results.json, PNG and SVG plots and a
// self-contained report.html. The Slurm engine writes a job array whose
// tasks each run a shard of the points into their own JSONL file; Collect
// merges them into the database.
//
// It does not model anything, schedule across machines other than through
// Slurm, or read plan files (host plans are not part of `smsim run` yet).
package sweep
