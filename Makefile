# Two commands do everything on a fresh Debian machine:
#   make demo   install what is missing, build, render the demo character
#               walking on the demo stage to out/demo.mp4 and one frame to out/demo.png
#   make test   install what is missing, build and run the whole test suite
#               in release and ASan+UBSan (no-SIMD, the scalar kernels alone,
#               is `make test-nosimd`; debug, ASan's code without the
#               sanitizers, is `make test-debug`)
# `make check` runs the release configuration only (the quick loop).
# `make fuzz` builds the libFuzzer targets with clang (build/fuzz) and runs
# each for FUZZ_SECONDS (default 2; 0 replays the seed corpus only); `make
# test` runs it after the configurations.

BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# One test more than the CPUs: the tail of a run (one long test alone)
# and the drawing tests' waits leave a core idle otherwise.
CTEST_JOBS ?= $(shell echo $$(( $(JOBS) + 1 )))
CONFIGS = release debug nosimd asan
# The debug configuration is ASan's Debug build without the sanitizers:
# everything it ran, asan runs too, so `make test` leaves it to
# `make test-debug` (docs/testing.md "Configurations").
TEST_CONFIGS ?= release asan
CMAKE_FLAGS ?=
FUZZ_SECONDS ?= 2
FUZZ_TARGETS = gltf_json glb data_uri accessor spring iqm vrm toon bone_map model_stream constraint vrma swa

CONFIG_FLAGS_release = -DCMAKE_BUILD_TYPE=Release -DSW_WERROR=ON -DSW_WEB_DIR=$(abspath $(BUILD_DIR))/web
CONFIG_FLAGS_debug   = -DCMAKE_BUILD_TYPE=Debug -DSW_WERROR=ON
CONFIG_FLAGS_nosimd  = -DCMAKE_BUILD_TYPE=Release -DSW_WERROR=ON -DSW_NO_SIMD=ON -DSW_DRAWING_TESTS=OFF
CONFIG_FLAGS_asan    = -DCMAKE_BUILD_TYPE=Debug -DSW_WERROR=ON -DSW_SANITIZE=ON -DSW_DRAWING_TESTS=OFF
# What each configuration runs (ctest labels, tests/CMakeLists.txt and
# docs/testing.md "Configurations"): release everything; asan all but the
# tests that run nothing the configuration changes (once), the drawing
# command-line tests other than render's own (cli-drawing) and
# the renderer's test programs (not built: SW_DRAWING_TESTS=OFF);
# debug also leaves drawing and hostile-input tests to asan (the same
# Debug code, sanitized); debug, nosimd and asan leave the
# reference runs to release (release holds the SIMD kernels to the scalar
# ones bit for bit and runs them against the references; the parsers'
# memory safety is the hostile tests' and the fuzzers' subject); nosimd
# also leaves out what reaches no SIMD kernel.
# CTEST_ARGS_<config>= (empty) on the command line runs everything there.
CTEST_ARGS_release =
CTEST_ARGS_debug   = -LE 'render|hostile|reference|once'
CTEST_ARGS_nosimd  = -LE 'render|hostile|reference|once'
CTEST_ARGS_asan    = -LE 'once|cli-drawing|reference'

.PHONY: all deps deps-test web demo test check fuzz install clean $(addprefix configure-,$(CONFIGS)) $(addprefix build-,$(CONFIGS)) $(addprefix test-,$(CONFIGS))

all: build-release

deps:
	@scripts/install-deps.sh

# What `make test` and `make web` need besides: GNU parallel, emscripten, chromium.
deps-test:
	@scripts/install-deps.sh --test

$(addprefix configure-,$(CONFIGS)): configure-%: deps
	cmake -S . -B $(BUILD_DIR)/$* $(CONFIG_FLAGS_$*) $(CMAKE_FLAGS)

$(addprefix build-,$(CONFIGS)): build-%: configure-%
	cmake --build $(BUILD_DIR)/$* -j $(JOBS)

$(addprefix test-,$(CONFIGS)): test-%: build-%
	cd $(BUILD_DIR)/$* && ctest --output-on-failure -j $(CTEST_JOBS) $(CTEST_ARGS_$*)

test: deps-test $(addprefix test-,$(TEST_CONFIGS)) fuzz

# Only the library and the fuzz targets are built here (no tools, no tests),
# without the SIMD skinning kernels: the targets fuzz the parsers, the
# kernels are tested in the four configurations, and instrumented for
# fuzzing they take minutes to compile.
fuzz: deps
	CC=clang cmake -S . -B $(BUILD_DIR)/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSW_FUZZ=ON \
		-DSW_BUILD_TOOLS=OFF -DSW_BUILD_TESTS=OFF -DSW_NO_SIMD=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD_DIR)/fuzz -j $(JOBS) $(addprefix --target fuzz_,$(FUZZ_TARGETS))
	scripts/fuzz.sh $(BUILD_DIR)/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

check: test-release

# `make install PREFIX=/opt/sinew` (default /usr/local): a release build of
# only what is installed (no tests, no examples): headers, the static
# libraries, the sinew command, the pkg-config files (sinew, sinew-import,
# sinew-render, sinew-demo) and the CMake package (find_package(sinew)).
PREFIX ?= /usr/local
install: deps
	cmake -S . -B $(BUILD_DIR)/install -DCMAKE_BUILD_TYPE=Release -DSW_BUILD_TESTS=OFF -DSW_BUILD_EXAMPLES=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD_DIR)/install -j $(JOBS)
	cmake --install $(BUILD_DIR)/install --prefix $(PREFIX)

# `make web`: the WebAssembly build and its page in build/web (index.html,
# sinew.js, sinew-core.js/.wasm, demo.glb; docs/web.md), incremental;
# serve the folder (python3 -m http.server -d build/web) and open it.
web: deps-test configure-release
	cmake --build $(BUILD_DIR)/release -j $(JOBS) --target sinew
	JOBS=$(JOBS) scripts/build-web.sh $(BUILD_DIR)/web $(BUILD_DIR)/web-obj $(BUILD_DIR)/release/sinew
	@echo "wrote $(BUILD_DIR)/web: python3 -m http.server -d $(BUILD_DIR)/web, then open http://localhost:8000/"

demo: configure-release
	cmake --build $(BUILD_DIR)/release -j $(JOBS) --target sinew
	@mkdir -p out
	$(BUILD_DIR)/release/sinew render --stage demo --anim walk --frames 90 -o out/demo.mp4
	$(BUILD_DIR)/release/sinew render --stage demo --anim walk --time 0.25 -o out/demo.png
	@echo "wrote out/demo.mp4 and out/demo.png"

clean:
	rm -rf $(BUILD_DIR) out
