// Command sdgo inspects, runs and checks SameDiff graph files from the
// command line: sdgo info (what a file holds), sdgo run (outputs, with
// placeholder values from flags, JSON or .npy files), sdgo dot (Graphviz
// DOT, or an SVG picture drawn without Graphviz),
// sdgo gradcheck (central differences against the reverse-mode gradients),
// sdgo check (whether SameDiff in Java can load each node) and sdgo
// version. Run `sdgo help` for the commands.
//
// Every command that reads a graph file takes -timeout, which bounds the
// loading and what follows it, and -max-memory, the memory budget
// (ndarray.SetAllocLimit: an array that would take the heap in use past it
// is an error, exit 1; by default what the rlimits,
// the cgroup and the machine's available memory leave, less a quarter). Input files that are not regular files (a
// pipe, a device) are read up to a cap: a graph stream up to
// serialize.MaxStreamSize, a -feeds JSON file up to 1 GiB, a .npy feed no
// further than its header's shape needs.
//
// Exit statuses, the same for every command:
//
//	0  done (gradcheck: every checked element passed)
//	1  the run or the check failed (an op's error, a failing gradient, a
//	   named output in a branch not taken), or stopped at -timeout or at
//	   the -max-memory budget
//	2  usage: flags, arguments, placeholder values given in flags
//	3  a bad file: the graph file does not load (missing, not a graph file,
//	   malformed), or a .npy or -feeds file cannot be read or makes no sense
//	4  an internal failure: sdgo caught a bug of its own (a panic turned into
//	   an error, or the loader's "internal error"); please report it
//
// Go's runtime exits 2 when it dies (a fatal error, with a goroutine
// trace), which sdgo's own usage errors never print.
package main
