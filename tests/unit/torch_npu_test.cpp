// The torch_npu target over small scripts: each rewrite, the device contexts, and idempotence.
#include <gtest/gtest.h>

#include <string>

#include "migrate/file_migration.h"
#include "project/project.h"
#include "targets/target.h"

namespace ferry::targets {
namespace {

migrate::FileResult run(const std::string& src) {
  static const Options options;
  static const auto target = make_target("torch_npu", options);
  static const ProjectContext ctx;
  return migrate::migrate_buffer("t.py", src, *target, options, ctx);
}

std::size_t count(const migrate::FileResult& r, std::string_view code) {
  std::size_t n = 0;
  for (const auto& d : r.diagnostics) n += to_string(d.code) == code;
  return n;
}

TEST(TorchNpu, MigratesPythonOnly) {
  const auto t = make_target("torch_npu", Options{});
  EXPECT_TRUE(t->migrates(project::FileKind::Python));
  EXPECT_FALSE(t->migrates(project::FileKind::CudaSource));
  EXPECT_FALSE(make_target("cann", Options{})->migrates(project::FileKind::Python));
}

TEST(TorchNpu, Basics) {
  const auto r = run("import torch\nx = torch.ones(2).cuda()\ntorch.cuda.synchronize()\n");
  EXPECT_EQ(r.output, "import torch\nimport torch_npu\nx = torch.ones(2).npu()\ntorch.npu.synchronize()\n");
  EXPECT_EQ(count(r, "FRY4650"), 3u);
  EXPECT_EQ(run(r.output).output, r.output);
}

TEST(TorchNpu, DeviceStringsOnlyInDeviceContexts) {
  const auto r = run("import torch\na = torch.device('cuda:1')\nb = x.to(\"cuda\")\nc = f(device='cuda')\n"
                     "name = 'cuda'\nd = {'k': 'cuda'}\n");
  EXPECT_EQ(r.output, "import torch\nimport torch_npu\na = torch.device('npu:1')\nb = x.to(\"npu\")\n"
                      "c = f(device='npu')\nname = 'cuda'\nd = {'k': 'cuda'}\n");
}

TEST(TorchNpu, BackendAndVisibleDevices) {
  const auto r = run("import torch.distributed as dist\ndist.init_process_group(backend='nccl')\n"
                     "dist.init_process_group('nccl')\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'\n");
  EXPECT_EQ(r.output, "import torch.distributed as dist\nimport torch_npu\n"
                      "dist.init_process_group(backend='hccl')\ndist.init_process_group('hccl')\n"
                      "os.environ['ASCEND_RT_VISIBLE_DEVICES'] = '0'\n");
}

TEST(TorchNpu, NothingToDoLeavesTheFileAlone) {
  const std::string src = "import torch\nx = torch.ones(2)\n";
  EXPECT_EQ(run(src).output, src);
}

TEST(TorchNpu, ExclusionMarker) {
  const std::string src = "import torch\nx.cuda()  # ferry: ignore\n";
  EXPECT_EQ(run(src).output, src);
}

}  // namespace
}  // namespace ferry::targets
