// Command sdgo loads, runs and checks graphs from the command line. Run
// `sdgo help` for the commands.
package main
