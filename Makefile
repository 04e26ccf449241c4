# Two commands do everything on a fresh Debian 12 machine:
#   make run    install what is missing, build, migrate the bundled example to HIP, compile it for gfx906
#   make test   install what is missing, build, run the whole test suite (CTest)
# and: make bench (benchmarks), make build, make deps, make format-check (the style check),
#      make install PREFIX=DIR (a relocatable prefix: bin/ferry, lib/ferry/wave64, share/ferry).
SHELL := /bin/bash
BUILD ?= build
JOBS ?= 2
CUDA_HOME ?= /usr/local/cuda
export PATH := $(CUDA_HOME)/bin:$(PATH)

# Debian packages, and why: see README.md "Dependencies".
APT_PACKAGES := build-essential cmake ninja-build python3 pkg-config \
  libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev libfmt-dev \
  hipcc libamdhip64-dev librocrand-dev libhiprand-dev libhipsparse-dev librocsparse-dev librocprim-dev \
  libopenmpi-dev openmpi-bin libzfp-dev libzstd-dev iproute2 python3-dev python3-torch pybind11-dev python3-pybind11 python3-matplotlib libopenblas0-pthread \
  python3-jsonschema chromium libcpp-httplib-dev libboost-context-dev clang libclang-rt-14-dev clang-format-14 \
  libtree-sitter-dev

CMAKE_FLAGS ?=
ifeq ($(CI),true)
CMAKE_FLAGS += -DFERRY_WERROR=ON
endif

PREFIX ?= /usr/local

.PHONY: deps build run test bench format-check clean install

deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	command -v npm >/dev/null || missing="$$missing nodejs npm"; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:" $$missing; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@bash scripts/run_example.sh $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 900

bench: build
	@bash bench/run_all.sh $(BUILD)

# Installs ferry, the wave64 runtime, the rule data and the docs into PREFIX (relocatable).
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

# clang-format-14 --dry-run -Werror over the sources .clang-format covers (scripts/format_check.sh);
# also CTest style.clang_format.
format-check:
	@command -v clang-format-14 >/dev/null || $(MAKE) --no-print-directory deps
	@bash scripts/format_check.sh

clean:
	rm -rf $(BUILD) out
