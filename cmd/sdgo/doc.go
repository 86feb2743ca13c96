// Command sdgo inspects, runs and checks SameDiff graph files from the
// command line: sdgo info (what a file holds), sdgo run (outputs, with
// placeholder values from flags, JSON or .npy files), sdgo dot (Graphviz),
// sdgo gradcheck (central differences against the reverse-mode gradients),
// sdgo check (whether SameDiff in Java can load each node) and sdgo version. Run `sdgo help` for the commands.
package main
