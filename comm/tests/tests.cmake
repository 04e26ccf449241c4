# ferry-comm tests: unit tests (no MPI traffic), MPI tests per collective under mpirun with
# 2..8 oversubscribed ranks, and fault tests (mismatched arguments, a frozen rank).
find_package(GTest REQUIRED)

add_executable(ferrycomm-unit-test tests/unit_test.cpp)
target_link_libraries(ferrycomm-unit-test PRIVATE ferry_comm GTest::gtest_main)
add_test(NAME comm.unit COMMAND ferrycomm-unit-test)
set_tests_properties(comm.unit PROPERTIES LABELS "comm" TIMEOUT 120)

add_executable(ferrycomm-mpi-test tests/mpi_test.cpp)
target_link_libraries(ferrycomm-mpi-test PRIVATE ferry_comm GTest::gtest)

# Open MPI refuses root without these; CI runs as root.
set(FERRY_COMM_MPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1)
set(FERRY_COMM_MPIRUN ${MPIEXEC_EXECUTABLE} --oversubscribe --allow-run-as-root --bind-to none)

foreach(np 2 3 4 5 8)
  add_test(NAME comm.mpi.np${np} COMMAND ${FERRY_COMM_MPIRUN} -np ${np} $<TARGET_FILE:ferrycomm-mpi-test>)
  set_tests_properties(comm.mpi.np${np} PROPERTIES LABELS "comm;mpi" TIMEOUT 300 ENVIRONMENT "${FERRY_COMM_MPI_ENV}"
                       PROCESSORS 2)
endforeach()

add_executable(ferrycomm-fault-test tests/fault_test.cpp)
target_link_libraries(ferrycomm-fault-test PRIVATE ferry_comm)
# mpirun reports the deliberate abort as a failure, so the verdict is the line rank 0 prints.
foreach(mode frozen frozen-header)
  add_test(NAME comm.fault.${mode} COMMAND ${FERRY_COMM_MPIRUN} -np 3 $<TARGET_FILE:ferrycomm-fault-test> ${mode})
  set_tests_properties(comm.fault.${mode} PROPERTIES LABELS "comm;mpi" TIMEOUT 60 ENVIRONMENT "${FERRY_COMM_MPI_ENV}"
                       PASS_REGULAR_EXPRESSION "FAULT-TEST-PASS" FAIL_REGULAR_EXPRESSION "FAULT-TEST-FAIL")
endforeach()
add_test(NAME comm.fault.killed COMMAND ${FERRY_COMM_MPIRUN} -np 3 $<TARGET_FILE:ferrycomm-fault-test> killed)
set_tests_properties(comm.fault.killed PROPERTIES LABELS "comm;mpi" TIMEOUT 60 ENVIRONMENT "${FERRY_COMM_MPI_ENV}"
                     PASS_REGULAR_EXPRESSION "FAULT-TEST-PASS|exited on signal 9|killed")
