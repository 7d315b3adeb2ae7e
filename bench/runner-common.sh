# Sourced by bench/{gemm,fused,attention,lowp}.sh after they set $root and
# $log: builds tile-run alone into build-runner/ (the GPU machine has no
# LLVM/MLIR), logging to $log, and sets $runner; if the build fails, prints
# the log's tail and exits 2.
cmake -G Ninja -S "$root" -B "$root/build-runner" -DTILE_ENABLE_COMPILER=OFF >>"$log" 2>&1 &&
  ninja -C "$root/build-runner" tile-run >>"$log" 2>&1 || { tail -20 "$log"; exit 2; }
runner="$root/build-runner/bin/tile-run"
