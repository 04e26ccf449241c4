# ferry-comm tests: unit tests (no MPI traffic), MPI tests per collective under mpirun with
# 2..8 oversubscribed ranks, and fault tests (mismatched arguments, a frozen rank).
find_package(GTest REQUIRED)

add_executable(ferrycomm-unit-test tests/unit_test.cpp)
target_link_libraries(ferrycomm-unit-test PRIVATE ferry_comm GTest::gtest_main)
add_test(NAME comm.unit COMMAND ferrycomm-unit-test)
set_tests_properties(comm.unit PROPERTIES LABELS "comm" TIMEOUT 120)
