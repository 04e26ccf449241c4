// The suite's build flags from a program folder's own build (diffrun/build_flags.h): the macro
// definitions of its build scripts, Makefile and CMakeLists.txt.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "diffrun/build_flags.h"
#include "diffrun/suite.h"

namespace ferry::diffrun {
namespace {

using Strings = std::vector<std::string>;

// HIP-Examples' mini-nbody/hip: one script per program, an `echo` of the command before it.
TEST(DiffrunBuildFlags, ScriptCommandThatNamesTheMain) {
  const std::string script =
      "#hipify nbody-block.cu > nbody-block.cpp\n"
      "if [ -z \"$HIP_PATH\" ]\nthen\n    HIP_PATH=/opt/rocm\nfi\n"
      "echo hipcc -I../ -DECHOED nbody-block.cpp -o nbody-block\n"
      "$HIP_PATH/bin/hipcc -I../ -DSHMOO nbody-block.cpp -o nbody-block\n"
      "#hipcc -I../ -DCOMMENTED nbody-block.cpp -o nbody-block\n";
  const Strings mains = {"nbody-block.cpp", "nbody-orig.cpp"};
  EXPECT_EQ(script_defines(script, "nbody-block.cpp", mains), Strings{"SHMOO"});
  EXPECT_EQ(script_defines(script, "nbody-orig.cpp", mains), Strings{});  // another program's command
  // -D NAME, -DNAME=VALUE, a continued command, a variable compiler, a quoted value.
  EXPECT_EQ(script_defines("$CXX -D FAST \\\n  -DN=4 -D'MSG=\"hi\"' a.cu -DBAD=$X -o a # -DNOTE\n", "a.cu", {"a.cu"}),
            (Strings{"FAST", "N=4", "MSG=\"hi\""}));
  EXPECT_EQ(script_defines("./a.out -DRUNTIME_ARG a.cu\n", "a.cu", {"a.cu"}), Strings{});  // not a compiler
}

TEST(DiffrunBuildFlags, MakefileAssignmentsAndRecipes) {
  const std::string mk =
      "HIPCC = hipcc\n"
      "CXXFLAGS = -O3 -DUSE_FAST -D__HIP_PLATFORM_AMD__\n"
      "DYNAMIC_SHMEM ?= -DSTATIC_SHMEM\n"
      "ifeq ($(dbg),1)\n  CXXFLAGS += -DDEBUG_ONLY\nelse\n  CXXFLAGS += -DNOT_DEBUG\nendif\n"
      "all: a b\n"
      "a: a.cu\n\t$(HIPCC) $(CXXFLAGS) -DFOR_A $< -o $@\n"
      "b: b.cu\n\t$(HIPCC) $(CXXFLAGS) -DFOR_B $< -o $@\n"
      "%.d: %.cu\n\t$(HIPCC) -DMAKE_DEPEND -M $(CXXFLAGS) $< > $@\n";
  const Strings mains = {"a.cu", "b.cu"};
  EXPECT_EQ(makefile_defines(mk, "a.cu", mains), (Strings{"USE_FAST", "STATIC_SHMEM", "FOR_A"}));
  EXPECT_EQ(makefile_defines(mk, "b.cu", mains), (Strings{"USE_FAST", "STATIC_SHMEM", "FOR_B"}));
  EXPECT_EQ(makefile_defines("CXXFLAGS =-fopenmp\nx:\n\t$(CXX) $(CXXFLAGS) x.cpp\n", "x.cpp", {"x.cpp"}), Strings{});
}

TEST(DiffrunBuildFlags, CMakeDefinitionsOfTheMainsTarget) {
  const std::string cm =
      "add_executable(${example_name} main.hip)\n"
      "add_executable(other other.hip)\n"
      "add_definitions(-DFROM_ADD -O2)\n"
      "add_compile_definitions(PLAIN \"QUOTED=1\" $<$<CONFIG:Debug>:DBG>)\n"
      "target_compile_definitions(${example_name} PRIVATE MINE INTERFACE FOR_USERS PUBLIC -DSHARED)\n"
      "target_compile_definitions(other PRIVATE NOT_MINE)\n"
      "if(WIN32)\n  target_compile_definitions(${example_name} PRIVATE WIN32)\nendif()\n"
      "function(f)\n  add_compile_definitions(IN_FUNCTION)\nendfunction()\n";
  EXPECT_EQ(cmake_defines(cm, "main.hip", {"main.hip"}), (Strings{"FROM_ADD", "PLAIN", "QUOTED=1", "MINE", "SHARED"}));
  EXPECT_EQ(cmake_defines("add_executable(x x.cu\n", "x.cu", {"x.cu"}), Strings{});  // unbalanced: nothing
}

// The folder: a script that names the main wins over the Makefile; the suite builds both sides
// with the definitions and says where they come from.
TEST(DiffrunBuildFlags, FolderDefinitionsReachTheSuitesPrograms) {
  const auto root = std::filesystem::temp_directory_path() / ("w64defs" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "nbody");
  std::ofstream(root / "nbody" / "block.cpp") << "#include <hip/hip_runtime.h>\n__global__ void k() {}\n"
                                                 "int main() { return 0; }\n";
  std::ofstream(root / "nbody" / "orig.cpp") << "#include <hip/hip_runtime.h>\n__global__ void k() {}\n"
                                                "int main() { return 0; }\n";
  std::ofstream(root / "nbody" / "build-block.sh") << "hipcc -I../ -DSHMOO block.cpp -o block\n";
  std::ofstream(root / "nbody" / "Makefile") << "CXXFLAGS = -DFROM_MAKE\n";
  std::ofstream(root / "list.txt") << "nbody\n";
  const std::vector<SuiteProgram> p = find_programs(root, root / "list.txt");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].name, "nbody/block");
  EXPECT_EQ(p[0].defines, Strings{"SHMOO"});
  EXPECT_EQ(p[0].defines_from, "build-block.sh");
  EXPECT_EQ(p[1].name, "nbody/orig");
  EXPECT_EQ(p[1].defines, Strings{"FROM_MAKE"});
  EXPECT_EQ(p[1].defines_from, "Makefile");
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace ferry::diffrun
