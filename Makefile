# Two commands do everything on a fresh Debian machine:
#   make demo   install what is missing, build, run the demo (writes out/)
#   make test   install what is missing, build and run the whole test suite
#               in every configuration: release, debug, no-SIMD, ASan+UBSan
# `make check` runs the release configuration only (the quick loop).

BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CONFIGS = release debug nosimd asan
TEST_CONFIGS ?= $(CONFIGS)
CMAKE_FLAGS ?=

CONFIG_FLAGS_release = -DCMAKE_BUILD_TYPE=Release -DSW_WERROR=ON
CONFIG_FLAGS_debug   = -DCMAKE_BUILD_TYPE=Debug -DSW_WERROR=ON
CONFIG_FLAGS_nosimd  = -DCMAKE_BUILD_TYPE=Release -DSW_WERROR=ON -DSW_NO_SIMD=ON
CONFIG_FLAGS_asan    = -DCMAKE_BUILD_TYPE=Debug -DSW_WERROR=ON -DSW_SANITIZE=ON

.PHONY: all deps demo test check clean $(addprefix configure-,$(CONFIGS)) $(addprefix build-,$(CONFIGS)) $(addprefix test-,$(CONFIGS))

all: build-release

deps:
	@scripts/install-deps.sh

$(addprefix configure-,$(CONFIGS)): configure-%: deps
	cmake -S . -B $(BUILD_DIR)/$* $(CONFIG_FLAGS_$*) $(CMAKE_FLAGS)

$(addprefix build-,$(CONFIGS)): build-%: configure-%
	cmake --build $(BUILD_DIR)/$* -j $(JOBS)

$(addprefix test-,$(CONFIGS)): test-%: build-%
	cd $(BUILD_DIR)/$* && ctest --output-on-failure -j $(JOBS)

test: $(addprefix test-,$(TEST_CONFIGS))

check: test-release

demo: configure-release
	cmake --build $(BUILD_DIR)/release -j $(JOBS) --target sinew
	@mkdir -p out
	$(BUILD_DIR)/release/sinew retention --plot out/retention.svg
	$(BUILD_DIR)/release/sinew retention --quiet --plot out/retention.png

clean:
	rm -rf $(BUILD_DIR) out
