# Flags for sweep's own tests, benchmarks and examples (never put on the sweep target itself).
add_library(sweep_dev_flags INTERFACE)
target_compile_options(sweep_dev_flags INTERFACE
  $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda --expt-relaxed-constexpr -Xcudafe=--display_error_number>)
target_compile_features(sweep_dev_flags INTERFACE cxx_std_17 cuda_std_17)
set_target_properties(sweep_dev_flags PROPERTIES INTERFACE_CUDA_STANDARD 17)
