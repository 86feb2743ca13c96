# make demo: build a graph in Go, train it, gradient-check it, save and reload it.
# make test: vet, formatting, the generated code against its generators,
#            every test with the race detector (make race) and the full
#            sweeps without it (make sweeps); the kernel tests also run for
#            arm64 under qemu when it is installed, and the OpenBLAS
#            benchmark peer is tested when OpenBLAS is.
GO ?= go

.PHONY: demo test race sweeps vet fmt generate-check bench arm64 openblas fuzz

demo:
	$(GO) run ./examples/demo

# make test starts its four test runs two at a time, the longest (arm64,
# one package under qemu) first, so that both cores of a small machine stay
# busy to the end. GNU make 4 prints each run's output whole when the run
# ends (--output-sync); a make without that feature runs them one after the
# other. make vet has vetted every package, so the runs turn go test's own
# vet pass off.
PARALLEL = $(if $(filter output-sync,$(.FEATURES)),-j2 --output-sync=target)

test: vet fmt generate-check
	@$(MAKE) --no-print-directory $(PARALLEL) arm64 race sweeps openblas

race:
	$(GO) test -race -vet=off ./...

# make sweeps: the tests of the packages that sweep less under the race
# detector (those with a race_test.go setting raceEnabled) without it, where
# every sweep runs in full.
SWEEPS = $(sort $(patsubst %/race_test.go,%,$(shell find . -path ./.git -prune -o -name race_test.go -print)))
sweeps:
	$(GO) test -vet=off $(SWEEPS)

vet:
	$(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./kernels/...
	$(GO) mod tidy -diff

fmt:
	@out=$$(gofmt -l . | grep -v '^serialize/internal/fb/'); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# make generate-check: run every go:generate line in the tree (the assembly
# generators kernels/amd64/gen.go and kernels/arm64/gen.go, and flatc for
# serialize/internal/fb) and fail, naming the files, if that changed any
# file: committed generated code must be what its generator writes. flatc is
# Debian's flatbuffers-compiler (2.0.8 wrote the committed code); without it
# only the kernels are checked.
HASHTREE = find . -path ./.git -prune -o -type f -print0 | sort -z | xargs -0 sha256sum
generate-check:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(HASHTREE) >"$$tmp/before" && \
	if command -v flatc >/dev/null 2>&1; then \
		$(GO) generate ./...; \
	else \
		echo "flatc not found: serialize/internal/fb not checked (apt-get install flatbuffers-compiler)"; \
		$(GO) generate ./kernels/...; \
	fi && \
	$(HASHTREE) >"$$tmp/after" && \
	changed=$$(diff "$$tmp/before" "$$tmp/after" | sed -n 's|^[<>] [0-9a-f]*  \./||p' | sort -u); \
	if [ -n "$$changed" ]; then \
		echo "go generate changed these files: the generated code is stale or was edited by hand."; \
		echo "$$changed" | sed 's/^/	/'; \
		if command -v flatc >/dev/null 2>&1; then echo "($$(flatc --version); the committed serialize/internal/fb is from flatc 2.0.8)"; fi; \
		echo "Review them (git diff) and commit what go generate wrote, or fix the generator."; \
		exit 1; \
	fi; \
	echo "generated code matches its generators"

arm64:
	@if command -v qemu-aarch64-static >/dev/null 2>&1; then \
		echo "arm64 kernels, and the random streams' bits, under qemu-aarch64-static:"; \
		GOARCH=arm64 $(GO) test -vet=off -exec qemu-aarch64-static ./kernels/... && \
		GOARCH=arm64 $(GO) test -vet=off -exec qemu-aarch64-static -run '^(TestRandomGolden|TestPortableLogExp)$$' ./ops; \
	else \
		echo "qemu-aarch64-static not found: arm64 kernel tests skipped (apt-get install qemu-user-static)"; \
	fi

# With -tags openblas (cgo), kernels/internal/openblas benchmarks OpenBLAS's
# GEMM under the names of the kernels' BenchmarkGemm; this keeps that peer
# compiling and correct.
openblas:
	@if printf '#include <cblas.h>\nint main(void) { return openblas_get_corename() == 0; }\n' | \
		$${CC:-cc} -x c - -lopenblas -o /dev/null >/dev/null 2>&1; then \
		echo "OpenBLAS benchmark peer:"; \
		$(GO) vet -tags openblas ./kernels/... && $(GO) test -vet=off -tags openblas ./kernels/internal/openblas; \
	else \
		echo "OpenBLAS not found: its benchmark peer is not tested (apt-get install libopenblas-dev)"; \
	fi

# make bench: sdgo against gorgonia and PyTorch (when python3-torch is
# installed) on whole training steps, one and two cores (see bench/).
bench:
	$(GO) run ./bench

# make fuzz: every fuzz target for FUZZTIME each (go test -fuzz). The seeds
# include whole graph files, whose minimisation takes minutes at Go's default
# of 60 s per new input; -fuzzminimizetime keeps the fuzzers fuzzing.
FUZZTIME ?= 30s
FUZZ = ./ndarray:FuzzLayouts ./ops/createview:FuzzResolve ./ops/createview:FuzzParse ./serialize:FuzzDecode ./serialize:FuzzRead ./ndarray/npy:FuzzReadNPY
fuzz:
	@for t in $(FUZZ); do \
		echo "$${t%%:*} $${t##*:}"; \
		$(GO) test $${t%%:*} -run XXX -fuzz "^$${t##*:}$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 2s || exit 1; \
	done
