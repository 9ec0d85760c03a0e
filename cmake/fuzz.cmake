# libFuzzer harnesses for every parser of outside input (testbench/fuzz,
# docs/fuzzing.md). Needs clang: -DCMAKE_CXX_COMPILER=clang++ -DAI8XSIM_FUZZ=ON.
# Each harness is built from its own copy of only the sources it exercises,
# instrumented for coverage and checked by ASan and UBSan, so no library of
# the normal build needs the fuzzer's instrumentation.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "AI8XSIM_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++ "
                      "-DCMAKE_C_COMPILER=clang")
endif()

set(AI8XSIM_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)

# ai8xsim_fuzz_harness(NAME SOURCES file... LIBS target...): testbench/fuzz/NAME.cpp + SOURCES.
function(ai8xsim_fuzz_harness name)
  cmake_parse_arguments(H "" "" "SOURCES;LIBS" ${ARGN})
  set(srcs ${CMAKE_SOURCE_DIR}/testbench/fuzz/${name}.cpp)
  foreach(s ${H_SOURCES})
    list(APPEND srcs ${CMAKE_SOURCE_DIR}/${s})
  endforeach()
  add_executable(${name} ${srcs})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/generated)
  target_compile_definitions(${name} PRIVATE ${AI8XSIM_COMMON_DEFS})
  target_compile_options(${name} PRIVATE ${AI8XSIM_FUZZ_FLAGS})
  target_link_options(${name} PRIVATE ${AI8XSIM_FUZZ_FLAGS})
  target_link_libraries(${name} PRIVATE ${H_LIBS})
  # Every input that once crashed it (testbench/fuzz/regressions/NAME) runs again,
  # and so does every input of the committed corpus (testbench/fuzz/corpus/NAME,
  # saved from the long runs): an input the long run passed that crashes after a
  # change fails the test. -runs=0: run the folders' inputs once, mutate nothing.
  set(inputs)
  foreach(kind regressions corpus)
    if(EXISTS ${CMAKE_SOURCE_DIR}/testbench/fuzz/${kind}/${name})
      list(APPEND inputs ${CMAKE_SOURCE_DIR}/testbench/fuzz/${kind}/${name})
    endif()
  endforeach()
  if(inputs)
    add_test(NAME fuzz:${name}:regressions COMMAND ${name} -runs=0 ${inputs})
    # CI's LSAN_OPTIONS=use_stacks=0 (for SystemC's coroutine stacks) would count
    # libFuzzer's own argument list, held only by main's stack, as leaked.
    set_tests_properties(fuzz:${name}:regressions PROPERTIES ENVIRONMENT "LSAN_OPTIONS=use_stacks=1")
  endif()
  list(APPEND AI8XSIM_FUZZ_HARNESSES ${name})
  set(AI8XSIM_FUZZ_HARNESSES ${AI8XSIM_FUZZ_HARNESSES} PARENT_SCOPE)
endfunction()

set(AI8XSIM_FUZZ_HARNESSES)
ai8xsim_fuzz_harness(fuzz_trace
  SOURCES tlm/trace_parser.cpp tlm/trace_command.cpp tlm/trace_number.cpp tlm/trace_word_file.cpp)
ai8xsim_fuzz_harness(fuzz_word_image
  SOURCES tlm/trace_word_file.cpp tlm/trace_number.cpp)
ai8xsim_fuzz_harness(fuzz_device_config
  SOURCES tlm/device_config.cpp tlm/device_overlay.cpp tlm/energy_config.cpp tlm/rtl_testbench_config.cpp
          tlm/register_description.cpp
  LIBS yaml-cpp)
ai8xsim_fuzz_harness(fuzz_elf
  SOURCES firmware/host/elf_image.cpp)
ai8xsim_fuzz_harness(fuzz_run_report
  SOURCES app/report_html.cpp app/report_heatmap.cpp app/report_energy.cpp
  LIBS nlohmann_json::nlohmann_json spdlog::spdlog)
ai8xsim_fuzz_harness(fuzz_vector_catalog
  SOURCES testbench/conformance/vector_catalog.cpp app/generator_estimate.cpp
  LIBS nlohmann_json::nlohmann_json)
ai8xsim_fuzz_harness(fuzz_arguments
  SOURCES app/register_override.cpp tlm/trace_number.cpp tools/sweep_grid.cpp)

add_custom_target(fuzz DEPENDS ${AI8XSIM_FUZZ_HARNESSES})
