#include "buildsys/build_files.h"
#include "buildsys/cmake_syntax.h"
#include "targets/target.h"

#include <gtest/gtest.h>

using namespace ferry::buildsys;

namespace {
Options with_arch(const char* a) {
  Options o;
  o.arch = a;
  return o;
}
bool has_code(const Result& r, const std::string& code) {
  for (const auto& d : r.diagnostics)
    if (to_string(d.code) == code) return true;
  return false;
}
}  // namespace

TEST(CMakeParse, CommandsArgumentsCommentsBrackets) {
  const auto cmds = parse_cmake(
      "# comment with project(CUDA)\n"
      "Project(x LANGUAGES CXX CUDA) #[[ bracket\n comment ]]\n"
      "set(A \"q u o t e d\" [=[br)acket]=] $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)\n"
      "if((A AND B) OR C)\nendif()\n");
  ASSERT_EQ(cmds.size(), 4u);
  EXPECT_EQ(cmds[0].name, "project");
  EXPECT_EQ(cmds[0].args.size(), 4u);
  EXPECT_EQ(cmds[0].line, 2u);
  EXPECT_EQ(cmds[1].args[1].text, "\"q u o t e d\"");
  EXPECT_TRUE(cmds[1].args[2].bracket);
  EXPECT_EQ(cmds[1].args[3].text, "$<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>");
  EXPECT_EQ(cmds[1].line, 4u);
  EXPECT_EQ(cmds[2].name, "if");
  EXPECT_THROW((void)parse_cmake("set(A (B)\n"), std::runtime_error);
}

TEST(CMakeMigrate, LanguageToolkitTargetsArchitectures) {
  const std::string in =
      "cmake_minimum_required(VERSION 3.21)\n"
      "# LANGUAGES CUDA in a comment stays\n"
      "set(CMAKE_CUDA_ARCHITECTURES 70 80)\n"
      "project(p LANGUAGES CXX CUDA)\n"
      "set(CMAKE_CUDA_STANDARD 17)\n"
      "find_package(CUDAToolkit REQUIRED)\n"
      "add_executable(app main.cu util.cpp)\n"
      "target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr;-lineinfo>)\n"
      "target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas)\n";
  const Result r = migrate_cmake("CMakeLists.txt", in, with_arch("gfx90a"));
  const std::string& o = r.output;
  EXPECT_NE(o.find("# LANGUAGES CUDA in a comment stays"), std::string::npos);
  EXPECT_NE(o.find("project(p LANGUAGES CXX)"), std::string::npos) << o;
  EXPECT_NE(o.find("set(CMAKE_CXX_COMPILER hipcc)"), std::string::npos);
  EXPECT_NE(o.find("set(GPU_TARGETS \"gfx90a\" CACHE STRING"), std::string::npos);
  EXPECT_NE(o.find("find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\n"), std::string::npos) << o;
  EXPECT_NE(o.find("set(CMAKE_CXX_STANDARD 17)"), std::string::npos);
  EXPECT_EQ(o.find("find_package(CUDAToolkit REQUIRED)"), std::string::npos);
  EXPECT_NE(o.find("set_source_files_properties(main.cu PROPERTIES LANGUAGE CXX)"), std::string::npos);
  EXPECT_NE(o.find("target_link_libraries(app PRIVATE hip::device)"), std::string::npos);
  EXPECT_NE(o.find("$<$<COMPILE_LANGUAGE:CXX>:-gline-tables-only>"), std::string::npos) << o;
  EXPECT_NE(o.find("target_link_libraries(app PRIVATE hip::host roc::hipblas)"), std::string::npos);
  EXPECT_TRUE(has_code(r, "FRY5002"));  // --expt-relaxed-constexpr dropped
  EXPECT_TRUE(has_code(r, "FRY5003"));
  // Idempotent: migrating the output again changes nothing.
  EXPECT_EQ(migrate_cmake("CMakeLists.txt", o, with_arch("gfx90a")).output, o);
}

TEST(CMakeMigrate, PlainLinkSignatureIsKept) {
  const Result r =
      migrate_cmake("CMakeLists.txt", "project(p CUDA)\nadd_executable(t k.cu)\ntarget_link_libraries(t cudart)\n", {});
  EXPECT_NE(r.output.find("project(p CXX)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("target_link_libraries(t hip::device)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("target_link_libraries(t amdhip64)"), std::string::npos) << r.output;
}

TEST(CMakeMigrate, NonCudaFileUnchangedAndBrokenFileCopied) {
  const std::string plain = "project(x CXX)\nadd_executable(x main.cpp)\n";
  EXPECT_EQ(migrate_cmake("CMakeLists.txt", plain, {}).output, plain);
  const Result bad = migrate_cmake("CMakeLists.txt", "set(A\n", {});
  EXPECT_EQ(bad.output, "set(A\n");
  EXPECT_TRUE(has_code(bad, "FRY5004"));
}

TEST(MakefileMigrate, CompilerArchLibsFlags) {
  const std::string in =
      "# nvcc -arch=sm_80 in a comment stays\n"
      "NVCC ?= $(CUDA_HOME)/bin/nvcc\n"
      "GENCODE := -gencode arch=compute_70,code=sm_70 \\\n"
      "           -gencode arch=compute_80,code=sm_80\n"
      "FLAGS := -O2 --expt-relaxed-constexpr -Xcompiler -Wall,-Wextra -lineinfo  # keep -lcudart here\n"
      "LIBS := -lcudart -lcublas -lnccl\n"
      "%.o: %.cu\n"
      "\tnvcc $(FLAGS) -arch=sm_90 -x cu -c $< -o $@\n";
  const Result r = migrate_makefile("Makefile", in, with_arch("gfx906"));
  const std::string& o = r.output;
  EXPECT_NE(o.find("# nvcc -arch=sm_80 in a comment stays\n"), std::string::npos);
  EXPECT_NE(o.find("NVCC ?= hipcc\n"), std::string::npos) << o;
  EXPECT_NE(o.find("GENCODE := --offload-arch=gfx906 \\\n"), std::string::npos) << o;
  EXPECT_EQ(o.find("compute_80"), std::string::npos) << o;
  EXPECT_NE(o.find("FLAGS := -O2 -Wall -Wextra -gline-tables-only  # keep -lcudart here\n"), std::string::npos) << o;
  EXPECT_NE(o.find("LIBS := -lamdhip64 -lhipblas -lrccl\n"), std::string::npos) << o;
  EXPECT_NE(o.find("\thipcc $(FLAGS) --offload-arch=gfx906 -x hip -c $< -o $@\n"), std::string::npos) << o;
  EXPECT_TRUE(has_code(r, "FRY5002"));
  EXPECT_EQ(migrate_makefile("Makefile", o, {}).output, o);
}

TEST(SetupPy, CudaExtensionExplainedNotChanged) {
  const std::string in =
      "from torch.utils.cpp_extension import CUDAExtension\nsetup(ext_modules=[CUDAExtension('x', ['x.cu'])])\n";
  const auto hip = ferry::targets::make_target("hip", {});
  const auto r = hip->migrate_build_file("pkg/setup.py", ferry::project::FileKind::Python, in, {});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->output, in);
  EXPECT_TRUE(has_code(*r, "FRY5005"));
  EXPECT_FALSE(hip->migrate_build_file("pkg/other.py", ferry::project::FileKind::Python, in, {}).has_value());
  // Build files belong to the hip and cuda targets: the others copy them.
  for (const char* other : {"cann", "torch_npu"})
    EXPECT_FALSE(ferry::targets::make_target(other, {})
                     ->migrate_build_file("CMakeLists.txt", ferry::project::FileKind::CMake, in, {})
                     .has_value())
        << other;
  EXPECT_FALSE(ferry::targets::make_target("cuda", {})
                   ->migrate_build_file("pkg/setup.py", ferry::project::FileKind::Python, in, {})
                   .has_value());
}
