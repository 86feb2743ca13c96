# make demo: build a graph in Go, train it, gradient-check it, save and reload it.
# make test: vet, formatting, and every test with the race detector; the
#            kernel tests also run for arm64 under qemu when it is installed,
#            and the OpenBLAS benchmark peer is tested when OpenBLAS is.
GO ?= go

.PHONY: demo test vet fmt bench arm64 openblas fuzz

demo:
	$(GO) run ./examples/demo

test: vet fmt
	$(GO) test -race ./...
	@$(MAKE) --no-print-directory arm64
	@$(MAKE) --no-print-directory openblas

vet:
	$(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./kernels/...

fmt:
	@out=$$(gofmt -l . | grep -v '^serialize/internal/fb/'); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

arm64:
	@if command -v qemu-aarch64-static >/dev/null 2>&1; then \
		echo "arm64 kernels under qemu-aarch64-static:"; \
		GOARCH=arm64 $(GO) test -exec qemu-aarch64-static ./kernels/...; \
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
		$(GO) vet -tags openblas ./kernels/... && $(GO) test -tags openblas ./kernels/internal/openblas; \
	else \
		echo "OpenBLAS not found: its benchmark peer is not tested (apt-get install libopenblas-dev)"; \
	fi

# make bench: sdgo against gorgonia on whole training steps (see bench/).
bench:
	$(GO) run ./bench

# make fuzz: every fuzz target for FUZZTIME each (go test -fuzz). The seeds
# include whole graph files, whose minimisation takes minutes at Go's default
# of 60 s per new input; -fuzzminimizetime keeps the fuzzers fuzzing.
FUZZTIME ?= 30s
FUZZ = ./ndarray:FuzzLayouts ./ops/createview:FuzzResolve ./ops/createview:FuzzParse ./serialize:FuzzDecode ./serialize:FuzzRead ./cmd/sdgo:FuzzReadNPY
fuzz:
	@for t in $(FUZZ); do \
		echo "$${t%%:*} $${t##*:}"; \
		$(GO) test $${t%%:*} -run XXX -fuzz "^$${t##*:}$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 2s || exit 1; \
	done
