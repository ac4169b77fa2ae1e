# smsim: the two commands of the README are `make demo` and `make test`.
GO      ?= go
BIN     := bin/smsim
GOFILES := $(shell find . -name '*.go' -not -path './.git/*')

.PHONY: all deps build demo test vet fuzz bench examples clean

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
# (where it cannot be installed, the suite says so and goes on).
STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck

# The whole suite (vet, gofmt, staticcheck, tests). CI runs exactly this.
test: deps
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...
	@if [ -x $(STATICCHECK) ]; then echo "staticcheck ./..."; $(STATICCHECK) ./...; else echo "staticcheck did not install here: not run"; fi
	$(GO) test -count=1 -timeout 20m ./...

# Each parser's fuzz target, 60 s each.
fuzz:
	$(GO) test -run '^$$' -fuzz='^FuzzParse$$' -fuzztime=60s ./isa
	$(GO) test -run '^$$' -fuzz='^FuzzDisasmText$$' -fuzztime=60s ./isa
	$(GO) test -run '^$$' -fuzz='^FuzzUnmarshal$$' -fuzztime=60s ./isa
	$(GO) test -run '^$$' -fuzz='^FuzzLoad$$' -fuzztime=60s -fuzzminimizetime=2s ./config
	$(GO) test -run '^$$' -fuzz='^FuzzReader$$' -fuzztime=60s ./vcd

bench:
	./bench/run.sh

# Regenerate examples/*.ptx from examples/*.cu with clang-16.
examples: deps
	@for f in examples/*.cu; do \
	  clang-16 --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib -S -O2 -x cuda $$f -o $${f%.cu}.ptx || exit 1; \
	done

clean:
	rm -rf bin
