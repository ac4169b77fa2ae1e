# smsim: the two commands of the README are `make demo` and `make test`.
GO      ?= go
BIN     := bin/smsim
GOFILES := $(shell find . -name '*.go' -not -path './.git/*')

.PHONY: all deps build demo test vet fuzz bench examples clean sm-mutants

all: build

deps:
	@./scripts/deps.sh

$(BIN): $(GOFILES) go.mod go.sum
	@mkdir -p bin
	$(GO) build -o $(BIN) ./cmd/smsim

build: $(BIN)

# The main job on the kernel embedded in the binary.
demo: deps build
	@$(BIN) demo

# staticcheck, installed by scripts/deps.sh through the module proxy
# (v0.8.2 = release 2026.2.2). Where it cannot be installed the suite says
# so and goes on, except in CI, where that fails the suite.
STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck

# Packages whose tests also run under the race detector (the tracer's
# worker goroutines, the cosim harness sessions, the sweep engine's workers);
# TestLint (Verilator lint), TestSMCallDepth and TestSMCoverage (Verilated
# SM builds, no Go concurrency to check) run in the first pass only.
RACE_PKGS := ./trace ./vcd ./cosim ./sweep

# The whole suite (gofmt, go mod tidy, vet, staticcheck, tests, the race
# detector on the concurrent packages). CI runs exactly this.
test: deps
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	@$(GO) mod tidy -diff >/dev/null || { echo "go.mod/go.sum are not tidy:"; $(GO) mod tidy -diff; exit 1; }
	$(GO) vet ./...
	@if [ -x $(STATICCHECK) ]; then echo "staticcheck ./..."; $(STATICCHECK) ./...; \
	 elif [ -n "$$CI" ]; then echo "staticcheck did not install (CI): failing"; exit 1; \
	 else echo "staticcheck did not install here: not run"; fi
	@[ -d ../shared ] || echo "../shared is missing beside this checkout: the tests of the shared PTX corpus and the seed examples skip (they run in CI)"
	$(GO) test -count=1 -timeout 20m ./...
	$(GO) test -count=1 -race -short -skip '^(TestLint|TestSMCallDepth|TestSMCoverage)$$' -timeout 10m $(RACE_PKGS)

# Every fuzz target of the module, 60 s each; the list comes from
# `go test -list '^Fuzz'`, so a new target is fuzzed without editing this.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f"; \
	    $(GO) test -run '^$$' -fuzz="^$$f$$" -fuzztime=60s -fuzzminimizetime=2s $$pkg; \
	  done; \
	done

bench:
	./bench/run.sh

# The SM RTL's mutation table (docs/sm-rtl.md, "Mutation"): one Verilated
# SM per mutant, about half an hour in all, so not part of make test.
sm-mutants: deps
	$(GO) test -count=1 -tags smmutants -run '^TestSMMutantTable$$' -timeout 90m -v ./cosim

# Regenerate examples/*.ptx from examples/*.cu with clang-16.
examples: deps
	@for f in examples/*.cu; do \
	  clang-16 --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib -S -O2 -x cuda $$f -o $${f%.cu}.ptx || exit 1; \
	done

clean:
	rm -rf bin verilog/build
