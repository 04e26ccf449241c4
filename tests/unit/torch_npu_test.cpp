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
  const auto r =
      run("import torch\na = torch.device('cuda:1')\nb = x.to(\"cuda\")\nc = f(device='cuda')\n"
          "name = 'cuda'\nd = {'k': 'cuda'}\n");
  EXPECT_EQ(r.output,
            "import torch\nimport torch_npu\na = torch.device('npu:1')\nb = x.to(\"npu\")\n"
            "c = f(device='npu')\nname = 'cuda'\nd = {'k': 'cuda'}\n");
}

TEST(TorchNpu, BackendAndVisibleDevices) {
  const auto r =
      run("import torch.distributed as dist\ndist.init_process_group(backend='nccl')\n"
          "dist.init_process_group('nccl')\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'\n");
  EXPECT_EQ(r.output,
            "import torch.distributed as dist\nimport torch_npu\n"
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

TEST(TorchNpu, BackendStringsFollowTheirPathToInitProcessGroup) {
  // dest=, one step of propagation (be = args.pg), set_defaults, getattr's default.
  const auto r =
      run("import torch.distributed as dist\n"
          "p.add_argument('--pg', dest='pg_backend', default='nccl')\n"
          "p.set_defaults(pg_backend='nccl')\n"
          "be = args.pg_backend\n"
          "dist.init_process_group(be)\n"
          "b2 = getattr(args, 'pg_backend', 'nccl')\n");
  EXPECT_EQ(r.output.find("'nccl'"), std::string::npos) << r.output;
  EXPECT_EQ(count(r, "FRY4655"), 0u);
  // A dict value and an unrelated option stay, with a warning each.
  const auto u = run("import torch\nm = {'cuda': 'nccl'}\np.add_argument('--log', default='nccl')\n");
  EXPECT_EQ(count(u, "FRY4655"), 2u);
  EXPECT_NE(u.output.find("'cuda': 'nccl'"), std::string::npos) << u.output;
  EXPECT_EQ(run(r.output).output, r.output);
}

TEST(TorchNpu, NcclApisAndEnvironment) {
  const auto r =
      run("import torch.distributed as dist\nfrom torch.distributed import is_nccl_available\n"
          "import os\nok = dist.is_nccl_available() and is_nccl_available() and x.is_nccl_available()\n"
          "os.environ['TORCH_NCCL_BLOCKING_WAIT'] = '1'\nos.environ['NCCL_DEBUG'] = 'INFO'\n"
          "b = dist.Backend.NCCL\n");
  EXPECT_NE(r.output.find("dist.is_hccl_available() and is_hccl_available() and x.is_nccl_available()"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("'TORCH_HCCL_BLOCKING_WAIT'"), std::string::npos);
  EXPECT_NE(r.output.find("dist.Backend.HCCL"), std::string::npos);
  EXPECT_EQ(count(r, "FRY4655"), 1u);  // x.is_nccl_available: x is not torch.distributed
  EXPECT_EQ(count(r, "FRY4657"), 1u);  // NCCL_DEBUG
  const auto f = run("from torch.cuda import nccl\n");
  EXPECT_EQ(f.output, "from torch.cuda import nccl\n");
  EXPECT_EQ(count(f, "FRY1650"), 1u);
}

TEST(TorchNpu, DeviceStringsFollowTheirPath) {
  const auto r =
      run("import torch\np.add_argument('--device', default='cuda')\n"
          "loc = f'cuda:{rank}'\nstate = torch.load(path, map_location=loc)\n"
          "dev = torch.device(args.device)\nif 'cuda' in args.device: pass\nlabel = 'cuda'\n");
  EXPECT_NE(r.output.find("default='npu'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("loc = f'npu:{rank}'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("if 'npu' in args.device"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("label = 'cuda'"), std::string::npos) << r.output;
  EXPECT_EQ(count(r, "FRY4656"), 1u);
}

}  // namespace
}  // namespace ferry::targets
