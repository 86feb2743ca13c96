package main

import (
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/sdgo/sdgo/kernels"
)

// version is sdgo's release.
const version = "0.1.0-dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "version":
		fmt.Fprintf(stdout, "sdgo %s (%s, %s/%s, kernels %s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH, kernels.ISA())
		return 0
	case "gradcheck":
		return runGradcheck(args[1:], stdout, stderr)
	case "run":
		return runGraphCmd(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "sdgo: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, `usage: sdgo <command> [arguments]

commands:
  gradcheck  check a graph file's gradients against central differences (sdgo gradcheck -h)
  run        run a graph file and print its outputs (sdgo run -h)
  version    print the version, the Go runtime and the kernel instruction set`)
}
